// The player's account on `hostage serve` (docs/protocol.md, Accounts): who
// is logged in, the account requests, and the server's error codes in
// words. The session itself is an HttpOnly cookie the page cannot read: the
// server says who is logged in (`GET /api/account/me`). A guest's page asks
// nothing: the name last logged in on this browser is kept in localStorage
// (HINT_KEY) only so that a guest's page makes no request (browsers such as
// Chromium log every 401 as a console error), and the server's answer
// always decides.
//
// Every request goes to the page's own origin (the server refuses another
// Origin), as JSON, with the cookie sent by the browser (same-origin fetch).

/** The localStorage key of the username last logged in on this browser. */
export const HINT_KEY = 'hostage.account';

/** The longest password the server takes, in characters (docs/protocol.md). */
export const PASSWORD_MAX = 128;
/** The shortest password the server takes, in characters. */
export const PASSWORD_MIN = 8;

let current = null; // the username logged in, or null for a guest
const listeners = new Set();

/** The username logged in, or null for a guest. */
export function account() { return current; }

/** Calls `fn(username | null)` on every change of who is logged in. */
export function onAccount(fn) { listeners.add(fn); }

function set(username) {
  current = username ?? null;
  if (current) localStorage.setItem(HINT_KEY, current);
  else localStorage.removeItem(HINT_KEY);
  for (const fn of listeners) fn(current);
}

/**
 * `method` (GET or POST) on `path` of the page's origin, with `body` as
 * JSON when given: `{ ok, status, data }`, data the JSON answer ({} when
 * there is none). A network failure is `{ ok: false, status: 0, data: {
 * code: 'offline' } }`.
 */
export async function request(method, path, body) {
  const headers = { accept: 'application/json' };
  const init = { method, credentials: 'same-origin', headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(new URL(path, location.href), init);
  } catch {
    return { ok: false, status: 0, data: { code: 'offline' } };
  }
  let data = {};
  try { data = await res.json(); } catch { /* no JSON body */ }
  return { ok: res.ok, status: res.status, data: data && typeof data === 'object' ? data : {} };
}

/**
 * Asks the server who is logged in, when this browser was logged in last
 * time (else a guest, with no request). Resolves the username or null.
 */
export async function restore() {
  if (!localStorage.getItem(HINT_KEY)) {
    set(null);
    return null;
  }
  const r = await request('GET', '/api/account/me');
  if (r.ok && typeof r.data.username === 'string') set(r.data.username);
  else if (r.status === 401 || r.status === 404) set(null);
  // Otherwise (offline, a server error) the page stays a guest's and the
  // hint is kept, so the next load asks again.
  return current;
}

/** Signs up (`signup`) or logs in (`login`); resolves the request's answer and sets the account on success. */
export async function enter(kind, username, password) {
  const r = await request('POST', `/api/account/${kind}`, { username, password });
  if (r.ok && typeof r.data.username === 'string') set(r.data.username);
  return r;
}

/** Logs out of this browser (`logout`) or everywhere (`logout-all`). */
export async function leave(kind = 'logout') {
  const r = await request('POST', `/api/account/${kind}`);
  // Ended or not (a session already gone is not_logged_in), this browser is a guest now.
  if (r.ok || r.status === 401) set(null);
  return r;
}

/** Changes the password (the other sessions end; this one goes on). */
export function changePassword(currentPassword, newPassword) {
  return request('POST', '/api/account/password', { current_password: currentPassword, new_password: newPassword });
}

/** Closes the account (its games stay under its name); this browser is a guest after. */
export async function closeAccount(password) {
  const r = await request('POST', '/api/account/close', { password });
  if (r.ok) set(null);
  return r;
}

/** The account's ongoing games (`GET /api/account/games`). */
export async function ongoingGames() {
  const r = await request('GET', '/api/account/games');
  if (r.status === 401) set(null);
  return r;
}

/** "5 minutes", "1 hour", "2 hours 3 minutes" for a wait in seconds. */
export function waitWords(seconds) {
  const s = Math.max(1, Math.ceil(Number(seconds) || 0));
  const unit = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  const m = Math.ceil(s / 60);
  if (m < 60) return unit(m, 'minute');
  const h = Math.floor(m / 60);
  return m % 60 ? `${unit(h, 'hour')} ${unit(m % 60, 'minute')}` : unit(h, 'hour');
}

/**
 * The server's answer `r` to an account request in a sentence for the
 * player (never its code); `password` is the password sent, to tell a short
 * one from a long one.
 */
export function accountError(r, { password = '' } = {}) {
  const d = r.data ?? {};
  switch (d.code) {
    case 'invalid_credentials': return 'Wrong username or password.';
    case 'too_many_attempts': return `Too many attempts: try again in ${waitWords(d.retry_after_s)}.`;
    case 'username_taken': return 'That username is taken: choose another.';
    case 'invalid_username': return 'A username is 1 to 20 letters or digits, spaces, _ - or .';
    case 'invalid_password':
      if ([...password].length > PASSWORD_MAX) return `That password is too long: at most ${PASSWORD_MAX} characters.`;
      if ([...password].length < PASSWORD_MIN) return `That password is too short: at least ${PASSWORD_MIN} characters.`;
      return 'A password may not contain control characters (tabs, line breaks).';
    case 'not_logged_in': return 'You are not logged in any more: log in again.';
    case 'origin_refused': return 'The server refused a request from this page.';
    case 'storage_failed': return 'The server could not do that right now: try again later.';
    case 'offline': return 'The server cannot be reached: check the connection and try again.';
    default:
      if (r.status === 404 || r.status === 405) return 'This server has no accounts: play as a guest.';
      return 'The server refused that: try again.';
  }
}
