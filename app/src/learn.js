// Learn: the rules course of the package (courseData(), docs/course), lesson
// by lesson. Each task is answered on the board or beside it and checked
// against the task's data with the package: a find_move answer is the move
// played (compared with the accepted answers, parsed by the package), a count
// is typed, an illegal move's reason is picked (and the package is asked to
// play the move, so its refusal is shown). Progress lives in localStorage.
import { announce, moveWords } from './announce.js';
import { Game } from './game.js';
import { inline, markdown } from './markdown.js';
import { Board, loadPuzzles } from './pkg.js';
import { play as playSound, soundFor } from './sound.js';
import { Table } from './table.js';
import { moveError } from './words.js';

const PROGRESS_KEY = 'hostage.learn.v1';

function loadProgress() {
  try { return JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? '{}') ?? {}; } catch { return {}; }
}

export async function mount(root) {
  // The course is data of the puzzles entry, loaded when Learn is first opened.
  const { courseData } = await loadPuzzles();
  const course = courseData();
  const lessons = course.lessons;
  const reasons = lessons.flatMap((l) => l.tasks).filter((t) => t.kind === 'illegal_move').map((t) => t.reason);
  let progress = loadProgress();
  let lessonIx = Math.max(0, lessons.findIndex((l) => l.id === progress._last));
  let taskIx = 0;
  let game = null;
  let solved = false;
  let tried = false; // a wrong move is on the board: it waits for "Try again"

  root.innerHTML = `
    <h1 class="visually-hidden">Learn the rules</h1>
    <div class="layout">
      <div class="table-slot"></div>
      <aside class="side">
        <section class="card course-nav">
          <h2>${course.title}</h2>
          <div class="progress" role="progressbar" aria-label="Lessons completed" aria-valuemin="0" aria-valuemax="${lessons.length}"><span></span></div>
          <label>Lesson <select class="lesson-select"></select></label>
          <p class="lesson-progress"></p>
          <p class="about-link"><a href="#/about">About the game: its story and its sources</a></p>
        </section>
        <section class="card task" aria-live="polite">
          <h2 class="task-title"></h2>
          <p class="prompt"></p>
          <div class="answer"></div>
          <p class="feedback" role="status"></p>
          <div class="buttons">
            <button type="button" data-act="hint">Hint</button>
            <button type="button" data-act="retry">Try again</button>
            <button type="button" class="primary" data-act="next" hidden>Next</button>
          </div>
        </section>
        <article class="card lesson">
          <h2 class="lesson-title"></h2>
          <p class="lesson-meta"></p>
          <details class="lesson-diagram"><summary>Diagram</summary><div class="diagram"></div></details>
          <div class="lesson-text"></div>
        </article>
      </aside>
    </div>`;
  const $ = (s) => root.querySelector(s);
  const table = new Table({ onMove: (m) => answerMove(m) });
  $('.table-slot').append(table.el);
  const select = $('.lesson-select');

  const done = (lesson) => new Set(progress[lesson.id] ?? []);
  const complete = (lesson) => done(lesson).size >= lesson.tasks.length;

  function save() {
    progress._last = lessons[lessonIx].id;
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress));
  }

  function renderNav() {
    select.innerHTML = lessons.map((l, i) => `<option value="${i}">${complete(l) ? '✓ ' : ''}${i + 1}. ${l.title} (${done(l).size}/${l.tasks.length})</option>`).join('');
    const cur = lessons[lessonIx];
    $('.lesson-progress').textContent = `This lesson: ${done(cur).size} of ${cur.tasks.length} tasks done.`;
    select.value = String(lessonIx);
    const n = lessons.filter(complete).length;
    $('.progress span').style.width = `${(100 * n) / lessons.length}%`;
    $('.progress').setAttribute('aria-valuenow', String(n));
    $('.progress').title = `${n} of ${lessons.length} lessons completed`;
    root.dataset.completed = String(n);
  }

  function openLesson(i) {
    lessonIx = i;
    const l = lessons[i];
    const d = done(l);
    taskIx = l.tasks.findIndex((_, k) => !d.has(k));
    if (taskIx < 0) taskIx = 0;
    $('.lesson-title').textContent = `${i + 1}. ${l.title}`;
    $('.lesson-meta').textContent = `Rules ${l.rules.join(', ')} · ${l.tasks.length} task${l.tasks.length > 1 ? 's' : ''}`;
    const diagram = new Board(l.fen);
    $('.diagram').innerHTML = diagram.svg({ size: 320 }); // the package's own, well-formed SVG
    diagram.free();
    $('.lesson-text').innerHTML = markdown(l.text);
    root.dataset.lesson = l.id;
    save();
    renderNav();
    openTask();
  }

  function openTask() {
    const l = lessons[lessonIx];
    const t = l.tasks[taskIx];
    solved = false;
    tried = false;
    game = Game.from(t.fen, t.moves ?? []);
    $('.task-title').textContent = `Task ${taskIx + 1} of ${l.tasks.length}${done(l).has(taskIx) ? ' ✓' : ''}`;
    $('.prompt').innerHTML = inline(t.prompt);
    feedback('');
    $('[data-act="next"]').hidden = true;
    $('.answer').replaceChildren(answerUi(t));
    root.dataset.task = `${l.id}/${taskIx}`;
    root.dataset.taskKind = t.kind;
    table.setFlipped(game.board.turn() === 'b' && t.kind === 'find_move');
    renderBoard();
  }

  function renderBoard() {
    const t = lessons[lessonIx].tasks[taskIx];
    table.set(game.board, { movable: (c) => t.kind === 'find_move' && !solved && !tried && c === game.board.turn() });
  }

  function answerUi(t) {
    const box = document.createElement('div');
    if (t.kind === 'find_move') {
      box.innerHTML = '<p class="how">Play your answer on the board (or type it below the board).</p>';
    } else if (t.kind === 'count') {
      box.innerHTML = `<form class="count-form"><label class="visually-hidden" for="count-${taskIx}">Your answer</label>
        <input id="count-${taskIx}" type="number" inputmode="numeric" min="0" name="count" placeholder="Number" required>
        <button type="submit" class="primary">Check</button></form>`;
      box.querySelector('form').addEventListener('submit', (ev) => {
        ev.preventDefault();
        const n = Number(ev.target.count.value);
        if (n === t.count) right(t.explanation ?? `Yes: ${t.count}.`);
        else wrong(`Not ${n}. ${t.hint}`);
      });
    } else {
      // illegal_move: pick the reason (this task's among others of the course).
      const others = reasons.filter((r) => r !== t.reason);
      const pick = [others[taskIx % others.length], others[(lessonIx + 3) % others.length]].filter((r, i, a) => a.indexOf(r) === i);
      const choices = [...pick, t.reason].sort((a, b) => (a.length * 7 + lessonIx) % 5 - (b.length * 7 + lessonIx) % 5);
      box.innerHTML = `<button type="button" class="try">Try ${t.illegal} on this board</button>
        <p class="try-result"></p><p class="how">Why is it illegal?</p><div class="reasons"></div>`;
      box.querySelector('.try').addEventListener('click', () => {
        const probe = game.board.clone();
        try {
          probe.push(t.illegal);
          box.querySelector('.try-result').textContent = 'The package accepted it?!';
        } catch (e) {
          box.querySelector('.try-result').textContent = `The rules say no: ${moveError(e, t.illegal)}`;
        } finally {
          probe.free();
        }
      });
      for (const reason of choices) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = reason;
        b.dataset.right = String(reason === t.reason);
        b.addEventListener('click', () => {
          if (solved) return;
          if (reason !== t.reason) { wrong(`Not that. ${t.hint}`); return; }
          heard(game.push(t.legal));
          right(`Right. ${t.reason} By contrast ${t.legal} is legal: it is shown on the board.`);
        });
        box.querySelector('.reasons').append(b);
      }
    }
    return box;
  }

  /** A move played on the lesson's board: its sound, and its words for screen readers. */
  function heard(m) {
    playSound(soundFor(m, game.board));
    announce(moveWords(m));
  }

  function answerMove(m) {
    const t = lessons[lessonIx].tasks[taskIx];
    if (t.kind !== 'find_move' || solved || tried) return;
    const accepted = t.answers.map((san) => {
      const probe = game.board.clone();
      try { return probe.push(san).uci; } finally { probe.free(); }
    });
    game.push(m);
    heard(m);
    if (accepted.includes(m.uci)) {
      right(`${m.san}: right. ${t.explanation ?? ''}`);
    } else {
      tried = true;
      renderBoard();
      wrong(`${m.san} is legal, but not the answer. ${t.hint} Press “Try again” to play another move.`);
    }
  }

  function right(text) {
    const l = lessons[lessonIx];
    solved = true;
    feedback(text, 'right');
    progress[l.id] = [...new Set([...(progress[l.id] ?? []), taskIx])];
    save();
    renderNav();
    const last = taskIx === l.tasks.length - 1;
    const next = $('[data-act="next"]');
    next.hidden = last && lessonIx === lessons.length - 1;
    next.textContent = last ? 'Next lesson' : 'Next task';
    $('.task-title').textContent = `Task ${taskIx + 1} of ${l.tasks.length} ✓`;
    renderBoard();
    next.focus();
  }

  function wrong(text) {
    feedback(text, 'wrong');
  }

  function feedback(text, kind = '') {
    // The course's texts are Markdown (`code`, **bold**).
    $('.feedback').innerHTML = inline(text);
    $('.feedback').dataset.kind = kind;
  }

  root.querySelector('.task .buttons').addEventListener('click', (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    const l = lessons[lessonIx];
    if (act === 'hint') feedback(l.tasks[taskIx].hint);
    if (act === 'retry') openTask();
    if (act === 'next') {
      if (taskIx < l.tasks.length - 1) { taskIx++; openTask(); } else openLesson(lessonIx + 1);
    }
  });
  select.addEventListener('change', () => openLesson(Number(select.value)));

  openLesson(lessonIx);
  return {};
}
