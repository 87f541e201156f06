// The one door to the rules: everything the app knows about Hostage Chess
// comes from the npm package hostage-chess (copied into ../vendor by
// app/build.sh). No other module imports the package directly.
// The package's three entries (rules, engine, puzzles) are three WebAssembly
// modules; all three are imported here, at start.
import * as hostage from '../vendor/hostage-chess/index.js';
import { engineLevels } from '../vendor/hostage-chess/engine.js';
import * as puzzles from '../vendor/hostage-chess/puzzles.js';

export const { Board, Setup, isHostageError } = hostage;
export { engineLevels };
export const { courseData } = puzzles;
/** The puzzle API, when the package has one (a later version), else null. */
export const Puzzles = puzzles.Puzzles ?? null;
export { EngineWorker } from '../vendor/hostage-chess/worker.js';

/** A package error as one line for the page: "IllegalMoveError: ...". */
export function errorText(e) {
  if (isHostageError(e)) return `${e.message} (${e.name}, ${e.code})`;
  return String(e?.message ?? e);
}
