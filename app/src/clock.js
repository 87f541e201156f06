// A chess clock for games on this device (against a bot, or two people at
// one device): each side's remaining time, the increment added after a
// move, and which side's time is running. Plain data, so a reload can save
// and restore it; the page asks `remaining(color)` when it draws.

export class LocalClock {
  /** initialMs and incrementMs per side; nothing runs until `start(color)`. */
  constructor(initialMs, incrementMs, saved = null) {
    this.initial = initialMs;
    this.increment = incrementMs;
    this.ms = saved?.ms ?? { w: initialMs, b: initialMs };
    this.running = null;
    this.since = 0;
  }

  /** The side whose time runs from now. */
  start(color) {
    this.running = color;
    this.since = performance.now();
  }

  /** The mover finished a move: its time stops, the increment is added, the other side's runs. */
  moved(color) {
    if (this.running === color) this.ms[color] = Math.max(0, this.remaining(color)) + this.increment;
    this.start(color === 'w' ? 'b' : 'w');
  }

  stop() {
    if (this.running) this.ms[this.running] = this.remaining(this.running);
    this.running = null;
  }

  remaining(color) {
    const run = this.running === color ? performance.now() - this.since : 0;
    return Math.max(0, this.ms[color] - run);
  }

  /** The side whose flag has fallen, or null. */
  flagged() {
    return this.running && this.remaining(this.running) <= 0 ? this.running : null;
  }

  save() {
    return { initial: this.initial, increment: this.increment, ms: { w: this.remaining('w'), b: this.remaining('b') } };
  }
}
