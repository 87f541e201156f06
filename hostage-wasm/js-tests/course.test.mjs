// courseData(): the rules course built into the package (hostage-chess/puzzles). Every task's
// position loads, its answers are legal there (the Rust suite checks the
// claims fully: hostage-core/tests/course.rs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { hostage, puzzles, puzzlesCjs, ROOT } from './helpers.mjs';

// courseData comes with the puzzles module (hostage-chess/puzzles).
const { Board } = hostage;
const { courseData } = puzzles;

test('courseData() is hostage-puzzles/data/course.json, a fresh object each call', () => {
  const course = courseData();
  assert.deepEqual(course, JSON.parse(readFileSync(join(ROOT, 'hostage-puzzles', 'data', 'course.json'), 'utf8')));
  course.lessons.length = 0;
  assert.ok(courseData().lessons.length > 0);
  assert.deepEqual(puzzlesCjs.courseData(), courseData());
});

test('every task loads in a Board and its answers are legal', () => {
  let tasks = 0;
  for (const lesson of courseData().lessons) {
    new Board(lesson.fen);
    for (const task of lesson.tasks) {
      tasks++;
      const board = new Board(task.fen);
      for (const san of task.moves ?? []) board.pushSan(san);
      assert.ok(['find_move', 'illegal_move', 'count'].includes(task.kind));
      if (task.kind === 'find_move') {
        assert.ok(task.answers.length > 0);
        for (const san of task.answers) assert.ok(board.isLegal(san), `${lesson.id}: ${san}`);
      }
      if (task.kind === 'illegal_move') {
        assert.equal(board.isLegal(task.illegal), false, `${lesson.id}: ${task.illegal}`);
        assert.ok(board.isLegal(task.legal), `${lesson.id}: ${task.legal}`);
      }
      if (task.kind === 'count') assert.equal(typeof task.count, 'number');
    }
  }
  assert.ok(tasks >= 15);
});
