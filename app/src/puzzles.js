// Puzzles: the package's puzzle API when it has one; until then, a note.
import { Puzzles } from './pkg.js';

export function mount(root) {
  if (!Puzzles) {
    root.innerHTML = `
      <h1 class="visually-hidden">Puzzles</h1>
      <div class="card coming-soon">
        <h2>Puzzles are coming soon</h2>
        <p>Puzzles that adapt to your level will appear here once the
        <code>hostage-chess</code> package ships its puzzle API
        (<code>Puzzles</code>). Meanwhile, the <a href="#/learn">course</a>
        has a task on the board for every rule.</p>
      </div>`;
    return {};
  }
  root.innerHTML = '<div class="card"><p>Puzzles are available in this package version.</p></div>';
  return {};
}
