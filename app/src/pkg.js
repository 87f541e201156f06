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

// The package's EngineWorker sends its options (here the compiled module)
// as a first request whose promise it keeps to itself: when a worker is
// stopped (terminate) or cannot start before that request is answered, the
// rejection has no handler. Those two are expected; the calls the app awaits
// get the same error and say it in words. Nothing else is swallowed.
globalThis.addEventListener?.('unhandledrejection', (ev) => {
  const e = ev.reason;
  if ((e?.name === 'AbortError' && e.message === 'engine worker terminated') || /^engine worker failed: /.test(e?.message ?? '')) ev.preventDefault();
});

let engine = null;
/**
 * The engine, loaded once on first use: `{ engineLevels, newEngineWorker }`.
 * The page fetches and compiles the engine's WebAssembly module once; it
 * instantiates it for `engineLevels()` (the package has no other way to
 * list the levels), and every worker (`newEngineWorker()`: the package's
 * EngineWorker running src/engine-host.js) receives the compiled module
 * instead of fetching it again. So the .wasm is fetched once per page load.
 */
export function loadEngine() {
  engine ??= (async () => {
    const url = new URL('../vendor/hostage-chess/hostage_engine_bg.wasm', import.meta.url);
    const [e, w, module] = await Promise.all([
      import('../vendor/hostage-chess/hostage_engine.js'),
      import('../vendor/hostage-chess/worker.js'),
      compile(url),
    ]);
    await e.default({ module_or_path: module });
    const host = new URL('./engine-host.js', import.meta.url);
    return {
      engineLevels: e.engineLevels,
      newEngineWorker: () => new w.EngineWorker(host, { module }),
    };
  })();
  engine.catch(() => { engine = null; }); // a failed load may be tried again
  return engine;
}

async function compile(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: ${res.status}`);
  if (WebAssembly.compileStreaming && res.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
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
