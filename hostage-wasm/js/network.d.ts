// Types of `hostage-chess/network`.

/**
 * The engine's network weights, the bytes of the package's `nnue.bin` (or
 * of the file at `url`), for `new Engine({ network })`,
 * `engine.loadNetwork()` or `new EngineWorker(url, { network })`.
 *
 * In a browser they are fetched once per URL (later calls share the
 * promise; the default URL is `nnue.bin?v=<digest>`, the first 16 hex
 * digits of the file's SHA-256) and kept in the Cache API under the same
 * digest where there is one (https, localhost), so another network is
 * never served from a cache; in Node.js `url` is a path or a `file:`
 * URL, read once. Rejects with a `NetworkError`: code `nnue_fetch` when
 * the file cannot be had, `nnue_magic` when the bytes are not a network
 * file; a failed load may be tried again.
 */
export declare function fetchNetwork(url?: string | URL): Promise<Uint8Array>;
