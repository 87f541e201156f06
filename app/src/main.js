// The app's entry: loads the package, builds the modes and switches
// between them by the URL's hash (#/play, #/learn, #/puzzles, #/analyse,
// #/lobby); #/about is the page about the game (linked from the footer and
// Learn); the player menu's pages are #/signup, #/login, #/account and
// #/games (Your games).
// A shared game link (?game=<id>, docs/protocol.md) opens Play online.
import { restore } from './account.js';
import { mountPlayerMenu } from './playermenu.js';
import { mountSettings } from './settings.js';
import { startError } from './words.js';

const MODES = {
  play: () => import('./play.js'),
  learn: () => import('./learn.js'),
  puzzles: () => import('./puzzles.js'),
  analyse: () => import('./analyse.js'),
  lobby: () => import('./lobby.js'),
  about: () => import('./about.js'),
  signup: () => import('./accountpages.js').then((m) => ({ mount: m.mountSignup })),
  login: () => import('./accountpages.js').then((m) => ({ mount: m.mountLogin })),
  account: () => import('./accountpages.js').then((m) => ({ mount: m.mountAccount })),
  games: () => import('./yourgames.js'),
};
const TITLES = { signup: 'Sign up', login: 'Log in', account: 'Account settings', games: 'Your games' };
const mounted = new Map();
const mounting = new Map(); // name -> the promise of its mount
let current = null; // the mode asked for last
const main = document.getElementById('main');

async function show(name) {
  if (!(name in MODES)) name = 'play';
  current = name;
  for (const a of document.querySelectorAll('.topbar [data-mode]')) {
    if (a.dataset.mode === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  // Mounted once, even when the hash changes again while a mode is loading
  // (a mode's mount may be async: it loads the package entry it needs first).
  mounting.set(name, mounting.get(name) ?? (async () => {
    const section = document.createElement('section');
    section.className = `mode mode-${name}`;
    section.id = `mode-${name}`;
    main.append(section);
    const mod = await MODES[name]();
    mounted.set(name, { section, mode: await mod.mount(section, { params: new URLSearchParams(location.search) }) });
  })());
  await mounting.get(name);
  // Another mode was asked for while this one loaded: that call shows it.
  if (current !== name) return;
  for (const [n, { section, mode }] of mounted) {
    const on = n === name;
    const was = !section.hidden;
    section.hidden = !on;
    if (on) mode?.shown?.();
    else if (was) mode?.hidden?.();
  }
  document.body.dataset.mode = name;
  const title = TITLES[name] ?? name[0].toUpperCase() + name.slice(1);
  document.title = `${title} · Hostage Chess`;
}

function route() {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  return show(name || 'play');
}

try {
  mountSettings(document.querySelector('.topbar .tools'));
  mountPlayerMenu(document.querySelector('.topbar .tools'));
  // Who is logged in, asked once the page is up (a guest's page asks nothing).
  restore().catch((e) => console.warn('the account could not be restored:', e));
  window.addEventListener('hashchange', route);
  // A link to the page already shown (no hashchange) shows it again, which
  // refreshes a page that loads on show (Your games).
  document.querySelector('.topbar').addEventListener('click', (ev) => {
    const a = ev.target.closest('a[data-mode]');
    if (a && a.getAttribute('href') === location.hash) route();
  });
  await route();
  document.getElementById('loading').remove();
  document.body.dataset.ready = 'true';
} catch (e) {
  // Said in words on the page; the details go to the console for developers.
  document.getElementById('loading').textContent = `The app could not start. ${startError(e)}`;
  console.warn('start-up failed:', e);
}
