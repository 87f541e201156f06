// hostage-chess/engine-worker.js: the Web Worker script that EngineWorker
// starts (hostage-chess/worker). It exports nothing; a page passes its URL
// to `new EngineWorker(url)` when its bundler does not follow
// `new URL('./engine-worker.js', import.meta.url)`.
export {};
