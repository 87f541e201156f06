// hostage-chess/worker for require() in Node.js. EngineWorker runs the
// engine in a browser's Web Worker, which Node.js does not have: this file
// lets shared code require the entry, and constructing an EngineWorker (or
// compiling its module) fails with the same clear error as the browser
// module does without a Web Worker. In Node.js, use Engine from
// hostage-chess/engine (in a worker_threads Worker to keep a thread free).
'use strict';

function noWebWorker() {
  return Object.assign(
    new Error('hostage-chess/worker: EngineWorker needs a Web Worker (browsers); '
      + 'in Node.js use Engine from hostage-chess/engine (in a worker_threads Worker to keep a thread free)'),
    { name: 'NotSupportedError', code: 'no_web_worker' },
  );
}

class EngineWorker {
  constructor() {
    throw noWebWorker();
  }
}

async function compileEngine() {
  throw noWebWorker();
}

module.exports = { EngineWorker, compileEngine };
