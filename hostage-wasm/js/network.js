// fetchNetwork (`import { fetchNetwork } from 'hostage-chess/network'`,
// browsers): the engine's network weights, nnue.bin beside this file,
// fetched once and kept.
//
// - In memory: one promise per URL for the page's (or worker's) lifetime,
//   so every caller after the first waits for the same download.
// - Across visits: the Cache API (secure contexts: https and localhost),
//   under a cache named after the weights' content (the first 16 hex digits
//   of their SHA-256, written in by hostage-wasm/build.sh), so that another
//   network is fetched afresh, even under the same package version, and
//   the old cache is deleted. The default URL carries the same digest
//   (`nnue.bin?v=<digest>`), so the browser's HTTP cache, all there is
//   where the Cache API is missing or refuses, never serves stale weights
//   either.
// Bytes that are not a network file (an HTML error page served with 200, a
// truncated download) are refused before they are cached.

const DIGEST = '@HOSTAGE_NETWORK_DIGEST@';
const CACHE_PREFIX = 'hostage-chess-network-';
const CACHE_NAME = CACHE_PREFIX + DIGEST;
const MAGIC = 'HSTGNN01';

const loads = new Map();

function networkError(message, code) {
  return Object.assign(new Error(message), { name: 'NetworkError', code });
}

function isNetworkFile(bytes) {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

async function openCache() {
  try {
    return typeof caches === 'object' && caches ? await caches.open(CACHE_NAME) : null;
  } catch {
    return null; // an insecure context or storage refused: HTTP caching only
  }
}

async function dropOldCaches() {
  try {
    for (const name of await caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
    }
  } catch {
    // Nothing to clean up where there is no Cache API.
  }
}

async function download(href) {
  const cache = await openCache();
  const cached = await cache?.match(href).catch(() => undefined);
  if (cached) {
    const bytes = new Uint8Array(await cached.arrayBuffer());
    if (isNetworkFile(bytes)) return bytes;
    await cache.delete(href).catch(() => {});
  }
  let res;
  try {
    res = await fetch(href);
  } catch (e) {
    throw networkError(`network weights ${href}: ${e?.message ?? e}`, 'nnue_fetch');
  }
  if (!res.ok) throw networkError(`network weights ${href}: HTTP ${res.status}`, 'nnue_fetch');
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!isNetworkFile(bytes)) {
    throw networkError(`network weights ${href}: not a network file (it does not start with ${MAGIC})`, 'nnue_magic');
  }
  if (cache) {
    await cache.put(href, new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }))
      .catch(() => {});
    await dropOldCaches();
  }
  return bytes;
}

/**
 * The network's weights (the bytes of `nnue.bin`, by default the one beside
 * this module, as `nnue.bin?v=<digest of its content>`), for
 * `new Engine({ network })`, `engine.loadNetwork()` or
 * `new EngineWorker(url, { network })`. Fetched once per URL: later calls
 * get the same promise, and later visits the Cache API's copy. A failed
 * download rejects with a `NetworkError` (code `nnue_fetch`, or
 * `nnue_magic` for bytes that are not a network file) and may be tried
 * again.
 */
export function fetchNetwork(url = new URL(`./nnue.bin?v=${DIGEST}`, import.meta.url)) {
  const href = new URL(url, globalThis.location?.href).href;
  let load = loads.get(href);
  if (!load) {
    load = download(href);
    loads.set(href, load);
    load.catch(() => loads.delete(href));
  }
  return load;
}
