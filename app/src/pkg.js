// The one door to the rules: everything the app knows about Hostage Chess
// comes from the npm package hostage-chess (copied into ../vendor by
// app/build.sh). No other module imports the package directly.
//
// The package's three entries are three WebAssembly modules. Only the rules
// (Board, Setup) are imported at start, so the first page load fetches only
// hostage_bg.wasm; the engine (bots, analysis, game review) and the puzzles
// and course are imported the first time a mode asks for them (loadEngine,
// loadPuzzles), and the browser fetches their modules then, once.
import * as hostage from '../vendor/hostage-chess/index.js';

export const { Board, Setup, isHostageError } = hostage;

let engine = null;
/**
 * The engine entry and the worker, loaded once on first use:
 * `{ engineLevels, EngineWorker }`. The worker fetches the engine module in
 * its own thread; the page needs it only for `engineLevels()`.
 */
export function loadEngine() {
  engine ??= Promise.all([
    import('../vendor/hostage-chess/engine.js'),
    import('../vendor/hostage-chess/worker.js'),
  ]).then(([e, w]) => ({ engineLevels: e.engineLevels, EngineWorker: w.EngineWorker }));
  return engine;
}

let puzzles = null;
/**
 * The puzzles entry, loaded once on first use: `{ courseData, Puzzles }`
 * (`Puzzles` is null in a package without the puzzle API).
 */
export function loadPuzzles() {
  puzzles ??= import('../vendor/hostage-chess/puzzles.js')
    .then((p) => ({ courseData: p.courseData, Puzzles: p.Puzzles ?? null }));
  return puzzles;
}

/** A package error as one line for the page: "IllegalMoveError: ...". */
export function errorText(e) {
  if (isHostageError(e)) return `${e.message} (${e.name}, ${e.code})`;
  return String(e?.message ?? e);
}
