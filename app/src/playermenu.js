// The player menu in the top bar (a navigation landmark named "Player"):
// "Sign up" and "Log in" for a guest; once logged in, a button with the
// username that opens a menu (a disclosure, as a site's navigation menu:
// Tab moves through it, Escape closes it) with Your games, Account settings,
// Log out and Log out everywhere. Who is logged in comes from account.js.
import { account, leave, onAccount } from './account.js';

/** A DOM element: el('a', { href: '#/x' }, 'Text'). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/** Mounts the player menu at the start of `where` (the top bar's tools). */
export function mountPlayerMenu(where) {
  const root = el('div', { class: 'player-nav', role: 'navigation', 'aria-label': 'Player' });
  const guest = el('div', { class: 'player-guest' },
    el('a', { href: '#/signup', 'data-mode': 'signup' }, 'Sign up'),
    el('a', { href: '#/login', 'data-mode': 'login' }, 'Log in'));
  const button = el('button', { type: 'button', class: 'player-button', 'aria-expanded': 'false', 'aria-controls': 'player-menu' });
  const logOut = el('button', { type: 'button', 'data-leave': 'logout' }, 'Log out');
  const logOutAll = el('button', { type: 'button', 'data-leave': 'logout-all' }, 'Log out everywhere');
  const menu = el('ul', { id: 'player-menu', class: 'player-menu', 'aria-label': 'Player menu' },
    el('li', {}, el('a', { href: '#/games', 'data-mode': 'games' }, 'Your games')),
    el('li', {}, el('a', { href: '#/account', 'data-mode': 'account' }, 'Account settings')),
    el('li', {}, logOut),
    el('li', {}, logOutAll));
  const user = el('div', { class: 'player-user' }, button, menu);
  root.append(guest, user);
  where.prepend(root);

  const open = (on) => {
    menu.hidden = !on;
    button.setAttribute('aria-expanded', String(on));
  };
  const show = (name) => {
    guest.hidden = Boolean(name);
    user.hidden = !name;
    button.replaceChildren(el('span', { class: 'player-name' }, name ?? ''), el('span', { 'aria-hidden': 'true' }, '▾'));
    open(false);
  };
  button.addEventListener('click', () => open(menu.hidden));
  menu.addEventListener('click', async (ev) => {
    if (ev.target.closest('a')) { open(false); return; }
    const kind = ev.target.closest('[data-leave]')?.dataset.leave;
    if (!kind) return;
    open(false);
    await leave(kind);
    if (['#/games', '#/account'].includes(location.hash)) location.hash = '#/login';
  });
  root.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && !menu.hidden) {
      open(false);
      button.focus();
    }
  });
  document.addEventListener('click', (ev) => { if (!user.contains(ev.target)) open(false); });
  // Tabbing out of the menu closes it, as a click elsewhere does.
  user.addEventListener('focusout', (ev) => { if (ev.relatedTarget && !user.contains(ev.relatedTarget)) open(false); });
  onAccount(show);
  show(account());
}
