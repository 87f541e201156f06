// Shared by the browser tests that use accounts (accounts, correspondence,
// rated games): the player menu found by its landmark and labels, signing
// up or logging in as a player would, and the phone-width check.
import assert from 'node:assert/strict';

/** The password every test account is made with. */
export const PASSWORD = 'correct horse 7';

/** The player menu's landmark ("Player"). */
export const playerNav = (page) => page.getByRole('navigation', { name: 'Player' });

/** The player menu's button of the logged-in `name`. */
export const menuButton = (page, name) => playerNav(page).getByRole('button', { name, exact: true });

/** Signs up or logs in (`title` 'Sign up' | 'Log in') from the player menu's link, as a player would. */
export async function enter(page, title, username, password = PASSWORD) {
  await playerNav(page).getByRole('link', { name: title }).click();
  const form = page.getByRole('form', { name: title });
  await form.getByRole('textbox', { name: 'Username' }).fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: title }).click();
  return form;
}

/** Fails when the page scrolls sideways (wider than its viewport). */
export async function fitsWidth(page, what) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide in a ${width} px viewport`);
}
