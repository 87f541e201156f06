// The one door to the rules: everything the app knows about Hostage Chess
// comes from the npm package hostage-chess (copied into ../vendor by
// app/build.sh). No other module imports the package directly.
//
// The package's three entries are three WebAssembly modules. Only the rules
// (Board, Setup) are imported at start, so the first page load fetches only
// hostage_bg.wasm; the engine (bots, analysis, game review) and the puzzles
// and course are imported the first time a mode asks for them (loadEngine,
// loadPuzzles), and the browser fetches their modules then, once. The
// engine's network weights (nnue.bin) are fetched the first time the
// full-strength engine is wanted (loadFullEngine: analysis, game review,
// hints and the full-strength bot), never for the levels Novice to Club,
// which evaluate by hand.
import * as hostage from '../vendor/hostage-chess/index.js';

export const { Board, Setup, isHostageError, version } = hostage;

let engine = null;
/**
 * The engine, loaded once on first use: `{ engineLevels, newEngineWorker }`.
 * The package's `compileEngine()` fetches and compiles the engine's
 * WebAssembly module once; the page instantiates it for `engineLevels()`
 * (the package has no other way to list the levels), and every worker
 * (`newEngineWorker()`: the bot's, the analysis's, each review's) is given
 * the compiled module instead of fetching it again. So the .wasm is fetched
 * once per page load. `newEngineWorker(options)` passes `options` (the
 * network) on to the worker's Engine.
 */
export function loadEngine() {
  engine ??= (async () => {
    const [e, w] = await Promise.all([
      import('../vendor/hostage-chess/hostage_engine.js'),
      import('../vendor/hostage-chess/worker.js'),
    ]);
    const module = await w.compileEngine();
    await e.default({ module_or_path: module });
    return {
      engineLevels: e.engineLevels,
      newEngineWorker: (options) => new w.EngineWorker(undefined, { ...options, module }),
    };
  })();
  engine.catch(() => { engine = null; }); // a failed load may be tried again
  return engine;
}

let fullEngine = null;
/**
 * The full-strength engine of the analysis, the game review, the hints and
 * the full-strength bot:
 * `{ newEngineWorker, network }`, its workers evaluating with the network
 * as the native engine does. The weights are fetched once, the first time
 * this is called (the package's fetchNetwork: one promise for the page, a
 * copy in the Cache API for later visits), and copied to each worker. If
 * they cannot be fetched, `network` is false and the workers evaluate by
 * hand; the next call tries the weights again.
 */
export function loadFullEngine() {
  fullEngine ??= (async () => {
    const [e, bytes] = await Promise.all([
      loadEngine(),
      import('../vendor/hostage-chess/network.js').then((n) => n.fetchNetwork()).catch(() => null),
    ]);
    if (!bytes) fullEngine = null;
    return {
      newEngineWorker: () => e.newEngineWorker(bytes ? { network: bytes } : undefined),
      network: Boolean(bytes),
    };
  })();
  fullEngine.catch(() => { fullEngine = null; });
  return fullEngine;
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
