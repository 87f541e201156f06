// Types of `hostage-chess/worker` (web/worker.js).
import type { Move } from '../index.js';
import type {
  Analysis,
  AnalyseOptions,
  EngineOptions,
  GameReview,
  PlayOptions,
  ReviewOptions,
} from '../engine.js';

/** Anything with a start FEN and the SAN moves played from it, such as a `Board`. */
export interface BoardLike {
  startFen(): string;
  history(): string[];
}

/**
 * Fetches and compiles the engine's WebAssembly module (by default the
 * `hostage_engine_bg.wasm` beside this module) once, for every
 * `EngineWorker` to share (`new EngineWorker(undefined, { module })`).
 * Rejects with a `NotSupportedError` (code `no_web_worker`) where there is
 * no Web Worker, as in Node.js.
 */
export declare function compileEngine(url?: string | URL): Promise<WebAssembly.Module>;

/**
 * The `Engine` in a Web Worker: the search runs off the main thread, so a
 * page stays responsive while the bot thinks. Calls are answered in order.
 */
export declare class EngineWorker {
  /**
   * `url`: the worker script (default: `engine-worker.js` beside this
   * module); `options.module`: the engine's compiled module from
   * `compileEngine()`, so that the worker fetches nothing;
   * `options.network`: the network's weights (`fetchNetwork()` of
   * `hostage-chess/network`), copied to the worker, for `analyse` and
   * `review` to evaluate with (the bots never do). Throws a
   * `NotSupportedError` (code `no_web_worker`) where there is no Web
   * Worker, as in Node.js.
   */
  constructor(url?: string | URL, options?: EngineOptions & { module?: WebAssembly.Module });
  /** The bot's move at `fen` after `history` (the moves played from it), or `null` when there is none. */
  play(fen: string, history: string[], options: Omit<PlayOptions, 'history'>): Promise<Move | null>;
  play(board: BoardLike, options: Omit<PlayOptions, 'history'>): Promise<Move | null>;
  analyse(fen: string, history: string[], options: Omit<AnalyseOptions, 'history'>): Promise<Analysis>;
  analyse(board: BoardLike, options: Omit<AnalyseOptions, 'history'>): Promise<Analysis>;
  /** A game review; `onProgress` is called on the page's thread as the worker reports. */
  review(fen: string, history: string[], options: Omit<ReviewOptions, 'history'>): Promise<GameReview>;
  review(board: BoardLike, options: Omit<ReviewOptions, 'history'>): Promise<GameReview>;
  newGame(): Promise<null>;
  /** Stops the worker; pending calls reject with an `AbortError`. */
  terminate(): void;
}
