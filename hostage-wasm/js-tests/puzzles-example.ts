// Type-checked usage of the Puzzles API (tsc -p js-tests): what a page
// needs to serve puzzles and keep the ratings itself.
import { Board } from 'hostage-chess';
import { Puzzles } from 'hostage-chess/puzzles';
import type { Difficulty, Puzzle, Rating, RatingUpdate } from 'hostage-chess/puzzles';

const player: Rating = Puzzles.newRating();
const seen: string[] = [];
const difficulty: Difficulty = 'harder';
const puzzle: Puzzle | null = Puzzles.next(player.rating, { difficulty, seen, seed: 1 });
if (puzzle) {
  // Open one move early: the opponent's lead-in move, then the solver's turn.
  const start = new Board(puzzle.leadInFen ?? puzzle.fen);
  const leadIn: string | null = puzzle.leadIn;
  if (leadIn !== null) start.push(leadIn);
  const board = new Board(puzzle.fen);
  const first: string = puzzle.moves[0];
  const right: boolean = Puzzles.accepts(puzzle.id, 0, first);
  board.push(first);
  const update: RatingUpdate = Puzzles.update(player, { rating: puzzle.rating, deviation: puzzle.deviation, volatility: 0.09 }, right);
  seen.push(puzzle.id);
  console.log(update.player.rating, puzzle.themes.join(' '), puzzle.mate, Puzzles.count(), start.fen());
}
