// EngineWorker (`import { EngineWorker } from 'hostage-chess/worker'`): the
// Engine of hostage-chess in a Web Worker, behind promises. The page's main
// thread only posts messages; the search runs in the worker
// (engine-worker.js, protocol described there and in docs/javascript.md).

function positionArgs(position, history, options) {
  if (typeof position === 'string') return [position, { ...(options ?? {}), history: history ?? [] }];
  // A Board (or anything with startFen() and history()): sent as its start
  // FEN and moves, since a Board cannot cross to a worker.
  return [position.startFen(), { ...(history ?? {}), history: position.history() }];
}

// Without a Web Worker (Node.js has none): a clear error, not a
// ReferenceError. Importing this module needs none; EngineWorker and
// compileEngine do.
function noWebWorker() {
  return Object.assign(
    new Error('hostage-chess/worker: EngineWorker needs a Web Worker (browsers); '
      + 'in Node.js use Engine from hostage-chess/engine (in a worker_threads Worker to keep a thread free)'),
    { name: 'NotSupportedError', code: 'no_web_worker' },
  );
}

/**
 * The engine's WebAssembly module (the `hostage_engine_bg.wasm` beside this
 * file), fetched and compiled once: give it to every `EngineWorker`
 * (`options.module`) and none of them fetches it again.
 */
export async function compileEngine(url = new URL('./hostage_engine_bg.wasm', import.meta.url)) {
  if (typeof Worker !== 'function') throw noWebWorker(); // no use for it without a Web Worker
  const res = await fetch(url);
  if (!res.ok) throw new Error(`engine module ${String(url)}: HTTP ${res.status}`);
  // compileStreaming needs the application/wasm type; a plain static server
  // may not send it.
  if (WebAssembly.compileStreaming && res.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

export class EngineWorker {
  #worker;
  #pending = new Map();
  #next = 1;
  #init = null;

  /**
   * Starts the worker: `url` is engine-worker.js (default: the one beside
   * this module); `options.hashMb` sizes the table of its Engine,
   * `options.module` (from `compileEngine()`) is the engine's compiled
   * module, so the worker fetches nothing, and `options.network` (from
   * `fetchNetwork()` of hostage-chess/network) the network's weights that
   * its analyse and review evaluate with.
   */
  constructor(url, options) {
    if (typeof Worker !== 'function') throw noWebWorker();
    this.#worker = new Worker(url ?? new URL('./engine-worker.js', import.meta.url), { type: 'module' });
    this.#worker.onmessage = (event) => {
      const { id, ok, result, error, progress } = event.data;
      const call = this.#pending.get(id);
      if (!call) return;
      if (progress) {
        // A review's progress: the call goes on.
        try {
          call.onProgress?.(...progress);
        } catch {
          // The page's callback failing must not break the worker's calls.
        }
        return;
      }
      this.#pending.delete(id);
      if (ok) call.resolve(result);
      else call.reject(Object.assign(new Error(error.message), { name: error.name, code: error.code }));
    };
    this.#worker.onerror = (event) => {
      event.preventDefault?.();
      this.#failAll(new Error(`engine worker failed: ${event.message ?? 'could not load'}`));
    };
    if (options) {
      // Every later call waits for the Engine to be made, so a failed start
      // (bad options, a module that cannot load, terminate) rejects those
      // calls with its error; the start's own promise is only that.
      this.#init = this.#post('init', undefined, options);
      this.#init.catch(() => {});
    }
  }

  #send(op, position, options, onProgress) {
    if (!this.#init) return this.#post(op, position, options, onProgress);
    return this.#init.then(() => this.#post(op, position, options, onProgress));
  }

  #post(op, position, options, onProgress) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage({ id, op, position, options });
    });
  }

  #failAll(error) {
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
  }

  /** The bot's move (a move object, or null): play(fen, history, { level, seed }) or play(board, { level, seed }). */
  play(position, history, options) {
    return this.#send('play', ...positionArgs(position, history, options));
  }

  /** An analysis: analyse(fen, history, { nodes, depth, multipv }) or analyse(board, { ... }). */
  analyse(position, history, options) {
    return this.#send('analyse', ...positionArgs(position, history, options));
  }

  /**
   * A game review: review(fen, history, { nodes, depth, onProgress }) or
   * review(board, { ... }); onProgress(done, total) runs on this thread.
   */
  review(position, history, options) {
    const [pos, opts] = positionArgs(position, history, options);
    const { onProgress, ...rest } = opts;
    return this.#send('review', pos, rest, onProgress);
  }

  /** Clears the worker engine's table (bot moves never depend on it). */
  newGame() {
    return this.#send('newGame');
  }

  /** Stops the worker at once; pending calls reject. */
  terminate() {
    this.#worker.terminate();
    this.#failAll(Object.assign(new Error('engine worker terminated'), { name: 'AbortError' }));
    // Calls still waiting for the start reject with the same error.
    this.#init = Promise.reject(Object.assign(new Error('engine worker terminated'), { name: 'AbortError' }));
    this.#init.catch(() => {});
  }
}
