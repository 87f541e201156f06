// hostage-chess/network in Node.js (require and, through network.mjs,
// import): fetchNetwork() reads the network's weights, nnue.bin of the
// package, from the disk once; a path or file: URL names another file.
'use strict';

const { readFile } = require('node:fs/promises');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const loads = new Map();

function networkError(message, code) {
  return Object.assign(new Error(message), { name: 'NetworkError', code });
}

/**
 * The bytes of the network file `file` (a path or a file: URL; by default
 * the package's nnue.bin), read once: later calls get the same promise.
 */
function fetchNetwork(file = path.join(__dirname, '..', 'web', 'nnue.bin')) {
  const where = file instanceof URL || String(file).startsWith('file:') ? fileURLToPath(file) : String(file);
  let load = loads.get(where);
  if (!load) {
    load = readFile(where).then(
      (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
      (e) => { throw networkError(`network weights ${where}: ${e.message}`, 'nnue_fetch'); },
    );
    loads.set(where, load);
    load.catch(() => loads.delete(where));
  }
  return load;
}

module.exports = { fetchNetwork };
