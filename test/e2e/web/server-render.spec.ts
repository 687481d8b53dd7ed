import { createProject, expect, expectAccessible, expectNoSidewaysScroll, signUp, test, uniq } from './fixtures';
import pg from 'pg';

/**
 * Signed-in pages come rendered from the server (facades/http/server-render.ts): the page is there before any script
 * runs, and the app then takes it over in place, working as before, without a console error (the CSP refuses inline
 * scripts and style attributes, and the fixture fails on any refusal).
 */
test('a signed-in page is in the HTML before any script runs, and the app takes it over', async ({ page, browser }) => {
  // A long name (and so a long organization name): the header cuts both short instead of widening the page.
  await signUp(page, 'Bartholomew Featherstonehaugh-Montgomery');
  const name = `Rendered Garden ${uniq()}`;
  await createProject(page, 'https://rendered-garden.example.com/', name);
  const projectUrl = page.url();

  // The same session in a browser without JavaScript: the dashboard and the project's page, from the HTML alone.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    await noScript.addCookies(await page.context().cookies());
    const plain = await noScript.newPage();
    await plain.goto('/projects');
    await expect(plain.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    const table = plain.getByRole('table', { name: 'Projects with their latest audit' });
    await expect(table.getByRole('link', { name })).toBeVisible();
    await expectNoSidewaysScroll(plain, 'the dashboard as the server rendered it');
    await expect(plain.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' })).toBeVisible();
    await plain.goto(projectUrl);
    await expect(plain.getByRole('heading', { level: 1, name })).toBeVisible();
  } finally {
    await noScript.close();
  }

  // With scripts: a cold load of the dashboard shows the project at once, then the app works on the same page. The
  // header stays drawn throughout: the app's first render replaces the server's header with its own, never with the
  // empty placeholder that stands in while the header's code loads (it did, for 300-700 ms, on every such page).
  await page.addInitScript(() => {
    let drawn = false;
    const check = () => {
      const text = document.querySelector('header.app-header')?.textContent?.trim() ?? '';
      if (text) drawn = true;
      else if (drawn) (window as unknown as { headerWentBlank?: boolean }).headerWentBlank = true;
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto('/projects');
  await expect(page.getByRole('link', { name })).toBeVisible();
  await expect(page).toHaveTitle(/^Projects · /);
  await expectNoSidewaysScroll(page, 'the dashboard with a long user and organization name');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByRole('dialog', { name: 'New project' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(
    await page.evaluate(() => (window as unknown as { headerWentBlank?: boolean }).headerWentBlank),
  ).toBeUndefined();
  await expectAccessible(page, 'the dashboard rendered by the server');
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  // The organization switcher names the organization from the first paint, and works once its list arrives.
  await page.getByRole('button', { name: /Organization/ }).click();
  await expect(page.getByRole('option', { name: 'Create organization…' })).toBeVisible();
  await page.keyboard.press('Escape');
});

/**
 * A long list streams after the page (lib/streamed-query.ts): while the keywords' rankings are locked in the database,
 * the page's heading and count are painted with the list's placeholder; once they are readable, the list arrives in
 * the same response, React's script (allowed by the response's CSP nonce: a refusal fails the test) puts it in place,
 * and the app takes the page over.
 */
test('a page paints before its list, which streams in when read', async ({ page }) => {
  await signUp(page);
  await createProject(page, 'https://streamed-garden.example.com/', `Streamed Garden ${uniq()}`);
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Keywords' }).click();
  await page.getByRole('button', { name: 'Add keywords' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add keywords' });
  await dialog.getByLabel('Keywords, one per line').fill('streamed herbs\nstreamed pots');
  await dialog.getByRole('button', { name: 'Add 2 keywords' }).click();
  await expect(dialog).toBeHidden();
  const keywords = page.getByRole('table', { name: /Tracked keywords/ }).getByRole('rowheader');
  await expect(keywords).toHaveCount(2);

  const locker = new pg.Client({
    connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test',
  });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE ranking IN ACCESS EXCLUSIVE MODE');
    await page.goto(page.url(), { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1, name: 'Keywords' })).toBeVisible();
    await expect(page.getByText('2 keywords tracked for Streamed Garden')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading keywords…' })).toBeVisible();
    await expect(keywords).toHaveCount(0);
    await locker.query('COMMIT');
  } finally {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
  }
  await expect(keywords).toHaveCount(2);
  await expect(page.getByText('Loading keywords…')).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search keywords or URLs' }).fill('pots');
  await expect(keywords).toHaveCount(1);
});
