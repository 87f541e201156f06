// The engine's Web Worker, started by the package's EngineWorker with this
// script's URL (`new EngineWorker(url, options)`): it receives the engine's
// WebAssembly module, compiled once by the page (src/pkg.js), in the
// EngineWorker's first message ('init', options.module), instantiates the
// package's engine with it, and then runs the package's own worker
// (engine-worker.js), whose `init` then finds the engine ready and fetches
// nothing. So the engine's .wasm is fetched once per page load, however many
// workers (bot, analysis, review) are started. The protocol is the
// package's; this script only hands over the module.
import { initSync } from '../vendor/hostage-chess/hostage_engine.js';

const early = [];
self.onmessage = (event) => {
  early.push(event);
  if (early.length > 1) return;
  const { module, ...options } = event.data?.options ?? {};
  if (module) initSync({ module });
  // The package's worker takes over: the 'init' message (without the module)
  // and whatever arrived meanwhile are handed to it in order.
  event.data.options = Object.keys(options).length ? options : null;
  import('../vendor/hostage-chess/engine-worker.js').then(() => {
    for (const e of early) self.onmessage(e);
  });
};
