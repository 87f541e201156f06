// Type-checked with `tsc --strict --noEmit` (js-tests/tsconfig.json): the
// Engine, its results and the Web Worker wrapper as a TypeScript user sees them.
import { Board, isHostageError } from 'hostage-chess';
import type { Move } from 'hostage-chess';
import { Engine, engineLevels } from 'hostage-chess/engine';
import type { Analysis, AnalysisLine, EngineLevel, LevelName, Score } from 'hostage-chess/engine';
import { EngineWorker } from 'hostage-chess/worker';

const engine = new Engine({ hashMb: 8 });
const board = new Board();
const analysis: Analysis = engine.analyse(board, { nodes: 10_000, multipv: 2 });
const best: Move | null = analysis.bestMove;
const score: Score = analysis.score;
const pawns: number = score.mate === undefined ? score.cp / 100 : Infinity * Math.sign(score.mate);
const lines: AnalysisLine[] = analysis.lines;
const pv: string[] = lines[0].pv.concat(lines[0].pvSan);
const levels: EngineLevel[] = engineLevels();
const level: LevelName = levels[0].name;
const reply: Move | null = engine.play(board.fen(), { history: [], level, seed: 1n });
if (reply) board.push(reply);
try {
  engine.play(board, { level: 'club', seed: 2 });
} catch (e: unknown) {
  if (isHostageError(e) && e.code === 'invalid_level') console.log(e.name);
}
engine.newGame();
console.log(best, pawns, pv);

async function worker(): Promise<void> {
  const bot = new EngineWorker();
  const move: Move | null = await bot.play(board.startFen(), board.history(), { level: 'novice', seed: 3 });
  const again: Move | null = await bot.play(board, { level: 'casual' });
  const a: Analysis = await bot.analyse(board, { depth: 2 });
  await bot.newGame();
  bot.terminate();
  console.log(move, again, a.depth);
}
void worker;
