// Move sounds made here with Web Audio (no sound files): short synthesised
// clicks and tones for a move, a capture, a check, a drop, an exchange and
// the end of a game. Silent when the player turned sounds off (settings).
import { settings } from './settings.js';

let ctx = null;

function tone(at, { freq, dur, type = 'sine', gain = 0.18, slide = 0 }) {
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  if (slide) o.frequency.exponentialRampToValueAtTime(freq * slide, at + dur);
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  o.connect(g).connect(ctx.destination);
  o.start(at);
  o.stop(at + dur + 0.02);
}

const SOUNDS = {
  move: (t) => tone(t, { freq: 420, dur: 0.07, type: 'triangle', slide: 0.6 }),
  capture: (t) => { tone(t, { freq: 300, dur: 0.09, type: 'square', gain: 0.1, slide: 0.5 }); tone(t + 0.03, { freq: 180, dur: 0.1, type: 'triangle' }); },
  check: (t) => { tone(t, { freq: 880, dur: 0.09, type: 'sawtooth', gain: 0.07 }); tone(t + 0.1, { freq: 660, dur: 0.12, type: 'sawtooth', gain: 0.07 }); },
  drop: (t) => tone(t, { freq: 620, dur: 0.08, type: 'triangle', slide: 0.4 }),
  exchange: (t) => { tone(t, { freq: 520, dur: 0.07, type: 'triangle' }); tone(t + 0.08, { freq: 700, dur: 0.09, type: 'triangle' }); },
  end: (t) => { tone(t, { freq: 523, dur: 0.18 }); tone(t + 0.16, { freq: 659, dur: 0.18 }); tone(t + 0.32, { freq: 784, dur: 0.3 }); },
};

/** The sound for a played move object (on the board after it: check wins). */
export function soundFor(move, board) {
  if (board?.isGameOver()) return 'end';
  if (board?.isCheck()) return 'check';
  if (move.kind === 'exchange') return 'exchange';
  if (move.kind === 'drop') return 'drop';
  if (move.capture) return 'capture';
  return 'move';
}

/** Plays one of move, capture, check, drop, exchange, end (if sounds are on). */
export function play(name) {
  if (!settings().sound || !(name in SOUNDS)) return;
  document.body.dataset.lastSound = name;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') ctx.resume();
    SOUNDS[name](ctx.currentTime + 0.01);
  } catch {
    // No audio device: sounds are an extra.
  }
}
