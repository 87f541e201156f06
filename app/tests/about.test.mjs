// The About page in Chromium, at desktop 1280x800 and phone 390x844:
// reached from the footer's link and from Learn's; it tells the story
// (Leslie, 1997, shogi and Chessgi, Pritchard, HostageMaster, the book)
// with every citation pointing at an entry of its list of sources, the
// sources as links (a book as its title); loading it asks nothing of any
// other site. Found by roles and visible labels; any console error fails
// the test (helpers.mjs). Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SIZES, shot, useApp } from './helpers.mjs';

const app = useApp();

for (const [label, viewport, extra] of SIZES) {
  test(`about (${label}): from the footer and from Learn, the story with its sources cited`, { timeout: 60_000 }, async () => {
    const requests = [];
    const { context, page } = await app.open('play', viewport, extra, { requests });
    await page.getByRole('contentinfo').getByRole('link', { name: 'About the game' }).click();
    const about = page.getByRole('article', { name: 'About Hostage Chess' });
    await about.waitFor();
    assert.equal(await page.title(), 'About · Hostage Chess');
    const text = await about.textContent();
    for (const fact of ['John Leslie', '1997', 'shogi', 'Chessgi', 'Pritchard', 'HostageMaster', 'Aristophanes Press']) {
      assert.ok(text.includes(fact), `the story names ${fact}`);
    }

    const sources = about.getByRole('region', { name: 'Sources' }).getByRole('listitem');
    const n = await sources.count();
    assert.ok(n >= 8, `${n} sources listed`);
    const links = about.getByRole('region', { name: 'Sources' }).getByRole('link');
    assert.ok(await links.count() >= n - 1, 'the sources are links (a book may be its title alone)');
    for (const href of await links.evaluateAll((as) => as.map((a) => a.href))) assert.match(href, /^https?:\/\/(?!127\.0\.0\.1)/);
    // Every citation in the text goes to a listed source, and every source is cited.
    const cites = about.getByRole('link', { name: /^source \d+$/ });
    const targets = await cites.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(targets.length >= n, `${targets.length} citations`);
    const ids = await sources.evaluateAll((lis) => lis.map((li) => `#${li.id}`));
    for (const t of targets) assert.ok(ids.includes(t), `citation ${t} has its source`);
    for (const id of ids) assert.ok(targets.includes(id), `source ${id} is cited`);
    await shot(page, `about-${label}`);

    // From Learn too.
    await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Learn' }).click();
    await page.getByRole('heading', { name: /^Task \d+ of \d+/ }).waitFor();
    assert.ok(await about.isHidden(), 'Learn is shown');
    await page.getByRole('link', { name: 'About the game: its story and its sources' }).click();
    await about.waitFor();
    // Nothing was fetched from another origin (the links are only followed when clicked).
    const origin = new URL(page.url()).origin;
    assert.deepEqual(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:')), []);
    await context.close();
  });
}
