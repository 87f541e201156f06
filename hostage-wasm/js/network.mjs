// Node.js ESM entry of hostage-chess/network: the CommonJS module
// re-exported, so that import and require share one cache.
import { createRequire } from 'node:module';
const network = createRequire(import.meta.url)('./network.cjs');
export const { fetchNetwork } = network;
