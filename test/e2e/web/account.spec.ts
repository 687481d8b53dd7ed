import { expectAccessible, signUp, test, expect, uniq, createProject } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('everything on the dashboard works by keyboard; the dialog keeps focus and gives it back', async ({ page }) => {
  await signUp(page, 'Key Board');
  await page.locator('body').focus();
  let focusedName = '';
  for (let i = 0; i < 30 && focusedName !== 'New project'; i += 1) {
    await page.keyboard.press('Tab');
    focusedName = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  }
  expect(focusedName).toBe('New project');
  // Focus is visible: the focused button draws an outline.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');

  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Website URL')).toBeFocused();
  for (let i = 0; i < 8; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'New project' })).toBeFocused();

  // The whole creation by keyboard.
  await page.keyboard.press('Enter');
  await page.keyboard.type(`${site.origin}/about`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: '127.0.0.1' })).toBeVisible();
});

test('a running audit shows live progress and can be cancelled; the pages found so far are kept', async ({ page }) => {
  await signUp(page, 'Pat Ience');
  await createProject(page, `${site.origin}/slow/`, 'Slow Garden');

  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit running' })).toBeVisible({ timeout: 30_000 });
  const progress = page.getByRole('progressbar');
  await expect(progress).toBeVisible();
  await expect(page.getByText('Crawling pages')).toBeVisible();
  // Updates without a reload: the pages crawled grow while we watch.
  const crawled = page.getByRole('definition').first();
  await expect(crawled).not.toHaveText('0', { timeout: 20_000 });
  const before = Number(await crawled.textContent());
  await expect.poll(async () => Number(await crawled.textContent()), { timeout: 20_000 }).toBeGreaterThan(before);
  // Pending, not disabled, while the audit runs (so that it keeps focus): it says so in its name.
  await expect(page.getByRole('button', { name: 'Run audit (working…)' })).toHaveClass(/\bis-pending\b/);
  await expectAccessible(page, 'the overview of a running audit');

  await page.getByRole('button', { name: 'Cancel audit' }).click();
  await page
    .getByRole('alertdialog', { name: 'Cancel this audit?' })
    .getByRole('button', { name: 'Cancel audit' })
    .click();
  const cancelled = page.getByText('The latest audit was cancelled');
  await expect(cancelled).toBeVisible();
  await expect(page.getByText(/Cancelled by a user\. \d+ URLs? had been crawled; they are kept\./)).toBeVisible();
  await page.getByRole('link', { name: 'See the pages' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible();
  await expect(
    page.getByRole('rowheader', { name: new RegExp(`${site.origin.replace(/[.:/]/g, '\\$&')}/slow/`) }).first(),
  ).toBeVisible();
});

test('the organization switcher moves between organizations; each sees its own projects', async ({ page }) => {
  await signUp(page, 'Org Hopper');
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('dialog', { name: 'New project' }).getByLabel('Website URL').fill(`${site.origin}/guides/herbs`);
  await page.getByRole('dialog', { name: 'New project' }).getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('button', { name: 'Run audit' })).toBeVisible();

  // A second organization, made through better-auth's organization API (the web app's client uses the same).
  const name = `Agency ${uniq()}`;
  const created = await page.request.post('/api/auth/organization/create', {
    headers: { origin: new URL(page.url()).origin },
    data: { name, slug: name.toLowerCase().replace(/ /g, '-'), keepCurrentActiveOrganization: true },
  });
  expect(created.status()).toBe(200);

  await page.goto('/projects');
  const switcher = page.getByRole('button', { name: /Organization/ });
  await expect(switcher).toContainText("Org Hopper's organization");
  await switcher.click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByRole('button', { name: /Organization/ })).toContainText(name);
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await expectAccessible(page, 'the dashboard of a second organization');

  await page.getByRole('button', { name: /Organization/ }).click();
  await page.getByRole('option', { name: "Org Hopper's organization" }).click();
  await expect(page.getByRole('link', { name: '127.0.0.1' })).toBeVisible();
});

test('the other pages pass axe too: the tools, sign-in and the GraphQL explorer', async ({ page }) => {
  for (const [path, heading] of [
    ['/sign-in', 'Sign in'],
    ['/tools', 'Free SEO tools'],
    ['/tools/headers', 'HTTP headers checker'],
    ['/tools/sitemap', 'XML sitemap validator'],
    ['/tools/meta-tags', 'Meta tags analyzer'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectAccessible(page, path);
  }
  await page.goto('/graphql/explorer');
  await expect(page.locator('.graphiql-container .monaco-editor').first()).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveTitle('GraphQL explorer · SEO Audit Platform');
  await expectAccessible(page, 'the GraphQL explorer');
});
