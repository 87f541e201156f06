// The Web Worker half of EngineWorker (`hostage-chess/worker`): an Engine
// running off the page's main thread, so that the page stays responsive
// while it searches. Started by worker.js as a module worker.
//
// Protocol (docs/javascript.md, "The engine in a Web Worker"):
//   request  { id, op, position?, options? }
//            op 'play'    → engine.play(position, options)     (result: Move | null)
//            op 'analyse' → engine.analyse(position, options)  (result: Analysis)
//            op 'review'  → engine.review(position, options)   (result: GameReview;
//                           before it, { id, progress: [done, total] } after each position)
//            op 'newGame' → engine.newGame()                    (result: null)
//            op 'init'    → a new Engine(options)               (result: null;
//                           options.module, a compiled WebAssembly.Module of
//                           the engine, is used instead of fetching it when
//                           'init' is the first request; options.network,
//                           the bytes of nnue.bin, makes analyse and review
//                           evaluate with the network)
//   response { id, ok: true, result } or { id, ok: false, error: { name, code, message } }
// Requests are answered one at a time, in the order they arrive.
import init, { Engine } from './hostage_engine.js';

// The engine's module: the one the first request brings (EngineWorker's
// options.module), else fetched from beside this file.
let ready = null;
let engine = null;

function run(id, op, position, options) {
  switch (op) {
    case 'init': {
      const { module: _compiled, ...rest } = options ?? {};
      engine?.free();
      engine = new Engine(Object.keys(rest).length ? rest : undefined);
      return null;
    }
    case 'play':
      engine ??= new Engine();
      return engine.play(position, options ?? {});
    case 'analyse':
      engine ??= new Engine();
      return engine.analyse(position, options ?? {});
    case 'review': {
      engine ??= new Engine();
      // A function cannot cross to the worker: progress goes back as messages.
      const onProgress = (done, total) => self.postMessage({ id, progress: [done, total] });
      return engine.review(position, { ...(options ?? {}), onProgress });
    }
    case 'newGame':
      engine?.newGame();
      return null;
    default:
      throw Object.assign(new TypeError(`unknown op: ${String(op)}`), { code: 'invalid_argument' });
  }
}

self.onmessage = async (event) => {
  const { id, op, position, options } = event.data ?? {};
  const module = op === 'init' && options?.module instanceof WebAssembly.Module ? options.module : null;
  ready ??= init({ module_or_path: module ?? new URL('./hostage_engine_bg.wasm', import.meta.url) });
  try {
    await ready;
    self.postMessage({ id, ok: true, result: run(id, op, position, options) });
  } catch (e) {
    self.postMessage({
      id,
      ok: false,
      error: { name: e?.name ?? 'Error', code: e?.code ?? null, message: String(e?.message ?? e) },
    });
  }
};
