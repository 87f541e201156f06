// The account's pages (docs/protocol.md, Accounts): Sign up (#/signup), Log
// in (#/login) and Account settings (#/account: change the password, log
// out here or everywhere, close the account). Every field has its label;
// the server's refusals are said in sentences (account.js), in an alert.
// Passwords are sent once and never kept or shown again.
import {
  PASSWORD_MAX, PASSWORD_MIN, account, accountError, changePassword, closeAccount, enter, leave, onAccount,
} from './account.js';
import { confirmBox } from './dialog.js';

let seq = 0;

/** A DOM element: el('button', { type: 'submit' }, 'Text'); `true` makes a bare attribute. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === true) node.setAttribute(k, '');
    else if (v !== false && v != null) node.setAttribute(k, String(v));
  }
  node.append(...children);
  return node;
}

/** A labelled field: [the label (holding the input), the input]. */
function field(label, attrs, hint = '') {
  const input = el('input', { required: true, ...attrs });
  const wrap = el('label', { class: 'field' }, label, input);
  if (hint) {
    const id = `account-hint-${++seq}`;
    wrap.append(el('span', { class: 'hint', id }, hint));
    input.setAttribute('aria-describedby', id);
  }
  return [wrap, input];
}

/** A card with a form named by its heading: { form, notice, submit }. */
function formCard(title, fields, submitText) {
  const id = `account-form-${++seq}`;
  const notice = el('p', { class: 'notice', role: 'alert' });
  const submit = el('button', { type: 'submit', class: 'primary' }, submitText);
  const form = el('form', { class: 'card account-form', 'aria-labelledby': id },
    el('h2', { id }, title), ...fields, notice, el('div', { class: 'buttons' }, submit));
  return { form, notice, submit };
}

const say = (notice, text, kind = 'error') => {
  notice.textContent = text;
  notice.dataset.kind = kind;
};

/** Runs `work` with the form's button disabled, so a slow server is not asked twice. */
async function busy(submit, work) {
  submit.disabled = true;
  try { return await work(); } finally { submit.disabled = false; }
}

/** Sign up or Log in: `kind` 'signup' | 'login'. */
function mountEntry(root, kind) {
  const signup = kind === 'signup';
  const [userLabel, username] = field('Username', {
    name: 'username', autocomplete: 'username', maxlength: 20, autocapitalize: 'off', spellcheck: 'false',
  }, signup ? '1 to 20 letters or digits, spaces, _ - or .' : '');
  const [passLabel, password] = field('Password', {
    type: 'password', name: 'password', autocomplete: signup ? 'new-password' : 'current-password',
  }, signup ? `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.` : '');
  const title = signup ? 'Sign up' : 'Log in';
  const { form, notice, submit } = formCard(title, [userLabel, passLabel], title);
  const other = signup
    ? el('p', { class: 'switch' }, 'Already have an account? ', el('a', { href: '#/login' }, 'Log in'))
    : el('p', { class: 'switch' }, 'No account yet? ', el('a', { href: '#/signup' }, 'Sign up'));
  const already = el('p', { class: 'card account-already', role: 'status' });
  form.append(other);
  root.append(el('h1', { class: 'visually-hidden' }, title), el('div', { class: 'account-layout' }, already, form));

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    say(notice, '');
    const sent = password.value;
    const r = await busy(submit, () => enter(kind, username.value.trim(), sent));
    password.value = '';
    if (!r.ok) {
      say(notice, accountError(r, { password: sent }));
      password.focus();
      return;
    }
    username.value = '';
    location.hash = '#/games';
  });
  const showState = (name) => {
    already.hidden = !name;
    already.textContent = name ? `You are logged in as ${name}.` : '';
  };
  onAccount(showState);
  showState(account());
  return { shown: () => say(notice, '') };
}

/** Sign up (#/signup). */
export const mountSignup = (root) => mountEntry(root, 'signup');
/** Log in (#/login). */
export const mountLogin = (root) => mountEntry(root, 'login');

/** Account settings (#/account): password, sessions, closing. */
export function mountAccount(root) {
  const heading = el('h1', {});
  const guest = el('p', { class: 'card' }, 'You are not logged in. ',
    el('a', { href: '#/login' }, 'Log in'), ' or ', el('a', { href: '#/signup' }, 'sign up'), ' first.');

  const [curLabel, current] = field('Current password', { type: 'password', name: 'current-password', autocomplete: 'current-password' });
  const [newLabel, next] = field('New password', { type: 'password', name: 'new-password', autocomplete: 'new-password' },
    `${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Your other devices are logged out.`);
  const pw = formCard('Change password', [curLabel, newLabel], 'Change password');

  const sessionsNotice = el('p', { class: 'notice', role: 'alert' });
  const sessions = el('section', { class: 'card', 'aria-labelledby': 'account-sessions' },
    el('h2', { id: 'account-sessions' }, 'Sessions'),
    el('p', { class: 'hint' }, 'Log out of this browser, or of every device where you are logged in.'),
    sessionsNotice,
    el('div', { class: 'buttons' },
      el('button', { type: 'button', 'data-leave': 'logout' }, 'Log out'),
      el('button', { type: 'button', 'data-leave': 'logout-all' }, 'Log out everywhere')));

  const [closeLabel, closePass] = field('Password', { type: 'password', name: 'close-password', autocomplete: 'current-password' },
    'Your games stay, under your name; the name cannot be used again.');
  const closing = formCard('Close account', [closeLabel], 'Close account');
  closing.submit.classList.replace('primary', 'danger');

  const body = el('div', { class: 'account-layout' }, pw.form, sessions, closing.form);
  root.append(heading, guest, body);

  pw.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const sent = next.value;
    const r = await busy(pw.submit, () => changePassword(current.value, sent));
    current.value = '';
    next.value = '';
    if (r.ok) say(pw.notice, 'Password changed. Your other devices are logged out.', 'success');
    else say(pw.notice, accountError(r, { password: sent }));
  });
  sessions.addEventListener('click', async (ev) => {
    const kind = ev.target.closest('[data-leave]')?.dataset.leave;
    if (!kind) return;
    const r = await leave(kind);
    if (r.ok || r.status === 401) location.hash = '#/login';
    else say(sessionsNotice, accountError(r));
  });
  closing.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const sent = closePass.value;
    const sure = await confirmBox('Close your account?', {
      yes: 'Close account', no: 'Keep account', detail: 'You cannot log in to it again. Your games stay under its name.',
    });
    if (!sure) return;
    const r = await busy(closing.submit, () => closeAccount(sent));
    closePass.value = '';
    if (r.ok) location.hash = '#/play';
    else say(closing.notice, accountError(r, { password: sent }));
  });

  const showState = (name) => {
    heading.textContent = name ? `Account settings: ${name}` : 'Account settings';
    guest.hidden = Boolean(name);
    body.hidden = !name;
  };
  onAccount(showState);
  showState(account());
  return {
    shown: () => { for (const n of [pw.notice, sessionsNotice, closing.notice]) say(n, ''); },
  };
}
