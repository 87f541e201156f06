// The player's settings, kept in localStorage (hostage.settings.v1): sounds,
// coordinates, animation speed and board colours. They apply to the page at
// once (data attributes and CSS variables on <body>) and modules read them
// with `settings()`; `onSettings(fn)` hears every change.
const KEY = 'hostage.settings.v1';
export const BOARD_THEMES = {
  brown: ['Brown', '#efd9b6', '#b88762'],
  green: ['Green', '#eeeed2', '#769656'],
  blue: ['Blue', '#dee3e6', '#8ca2ad'],
  grey: ['Grey', '#e8e8e8', '#a0a0a0'],
};
export const ANIMATION = { off: ['Off', 0], fast: ['Fast', 120], normal: ['Normal', 220], slow: ['Slow', 400] };
const DEFAULTS = { sound: true, coordinates: true, animation: 'normal', theme: 'brown' };
const listeners = new Set();
let current = load();

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    const out = { ...DEFAULTS, ...(s && typeof s === 'object' ? s : {}) };
    if (!(out.theme in BOARD_THEMES)) out.theme = DEFAULTS.theme;
    if (!(out.animation in ANIMATION)) out.animation = DEFAULTS.animation;
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

/** The settings now: { sound, coordinates, animation, theme }. */
export function settings() { return current; }

/** Animation length in ms (0 when off or when the system asks for reduced motion). */
export function animationMs() {
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return 0;
  return ANIMATION[current.animation][1];
}

export function onSettings(fn) { listeners.add(fn); }

export function update(change) {
  current = { ...current, ...change };
  localStorage.setItem(KEY, JSON.stringify(current));
  apply();
  for (const fn of listeners) fn(current);
}

export function apply() {
  const b = document.body;
  const [, light, dark] = BOARD_THEMES[current.theme];
  b.style.setProperty('--light', light);
  b.style.setProperty('--dark', dark);
  b.dataset.coords = String(current.coordinates);
  b.dataset.sound = String(current.sound);
}

/** The settings panel: a button in the top bar opening a dialog. */
export function mountSettings(where) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'settings-button';
  button.textContent = 'Settings';
  button.setAttribute('aria-haspopup', 'dialog');
  const sound = document.createElement('button');
  sound.type = 'button';
  sound.className = 'mute-button';
  const showSound = () => {
    // A speaker, with waves when on and a cross when muted (no emoji font needed).
    sound.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${current.sound
      ? '<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>'
      : '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'}</svg>`;
    sound.setAttribute('aria-label', 'Sound');
    sound.setAttribute('aria-pressed', String(current.sound));
    sound.title = current.sound ? 'Sound on (click to mute)' : 'Sound off (click to turn on)';
  };
  sound.addEventListener('click', () => update({ sound: !current.sound }));
  onSettings(showSound);
  showSound();
  const d = document.createElement('dialog');
  d.className = 'settings';
  d.setAttribute('aria-labelledby', 'settings-title');
  d.innerHTML = `<form method="dialog">
    <h2 id="settings-title">Settings</h2>
    <label class="check"><input type="checkbox" name="sound"> Sounds</label>
    <label class="check"><input type="checkbox" name="coordinates"> Coordinates on the board</label>
    <label>Animation speed <select name="animation">${Object.entries(ANIMATION).map(([v, [t]]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
    <label>Board colours <select name="theme">${Object.entries(BOARD_THEMES).map(([v, [t]]) => `<option value="${v}">${t}</option>`).join('')}</select></label>
    <p class="about" hidden></p>
    <div class="buttons"><button value="close" class="primary">Done</button></div>
  </form>`;
  const form = d.querySelector('form');
  // "hostage-chess 0.3.0": the package's own version() (the rules module,
  // which the first load fetches anyway), read through pkg.js, the app's
  // one door to the package, once it has loaded.
  const about = d.querySelector('.about');
  import('./pkg.js').then(({ version }) => {
    about.textContent = `hostage-chess ${version()}`;
    about.hidden = false;
  }, () => {}); // the package failing to load is reported by main.js
  const fill = () => {
    form.sound.checked = current.sound;
    form.coordinates.checked = current.coordinates;
    form.animation.value = current.animation;
    form.theme.value = current.theme;
  };
  form.addEventListener('change', () => update({
    sound: form.sound.checked, coordinates: form.coordinates.checked, animation: form.animation.value, theme: form.theme.value,
  }));
  onSettings(fill);
  button.addEventListener('click', () => { fill(); d.showModal(); });
  where.append(sound, button);
  document.body.append(d);
  apply();
}
