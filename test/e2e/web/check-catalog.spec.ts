import {
  createProject,
  expect,
  expectAccessible,
  expectConsoleError,
  expectNoSidewaysScroll,
  signUp,
  test,
  uniq,
} from './fixtures';

/** The public check catalog (/checks, /checks/:code) and a project's check settings (/projects/:id/checks). */

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the catalog and a check page show their content, head and canonical from the server', async ({ page }) => {
    await page.goto('/checks');
    await expect(page.getByRole('heading', { level: 1, name: 'SEO check catalog' })).toBeVisible();
    await expect(page).toHaveTitle(/^SEO check catalog: /);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/checks$/);
    const links = page.locator('.check-list').getByRole('link');
    expect(await links.count()).toBeGreaterThan(100);
    await page.getByRole('link', { name: 'Missing title', exact: true }).click();
    await expect(page).toHaveURL(/\/checks\/META_TITLE_MISSING$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Missing title' })).toBeVisible();
    await expect(page).toHaveTitle('Missing title (META_TITLE_MISSING) · SEO check');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /no <title>/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/checks\/META_TITLE_MISSING$/);
    for (const name of ['Rule', 'Why it matters', 'How to fix it', 'How it counts in the score'])
      await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(page.getByText(/costs the META score 100 × 1 × affected pages/)).toBeVisible();
  });
});

test('an unknown check code is a 404; sitemap.xml and robots.txt list the check pages', async ({ page, request }) => {
  const missing = await request.get('/checks/NOT_A_CHECK_CODE');
  expect(missing.status()).toBe(404);
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/checks</loc>');
  expect(sitemap).toContain('/checks/META_TITLE_MISSING</loc>');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Allow: /checks/META_TITLE_MISSING$');
  // The browser logs the 404 of the document itself.
  expectConsoleError(/status of 404/);
  await page.goto('/checks/NOT_A_CHECK_CODE');
  await expect(page.getByRole('heading', { level: 1, name: 'Check not found' })).toBeVisible();
});

test('the catalog filters by category, severity and text; a check page; accessible, no sideways scroll', async ({
  page,
}) => {
  await page.goto('/checks');
  await expect(page.getByRole('heading', { level: 1, name: 'SEO check catalog' })).toBeVisible();
  const count = page.locator('.check-list > li');
  const all = await count.count();
  // The server's markup is inert until the app takes it over: the first click may come before that, so it is retried
  // until the list opens (on a loaded machine the takeover took longer than the first click).
  await expect(async () => {
    await page.getByRole('button', { name: /Category/ }).click();
    await expect(page.getByRole('option', { name: 'Links' })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole('option', { name: 'Links' }).click();
  await expect(page).toHaveURL(/category=LINKS/);
  const links = await count.count();
  expect(links).toBeLessThan(all);
  await page.getByRole('button', { name: /Severity/ }).click();
  await page.getByRole('option', { name: 'Critical' }).click();
  await expect(page).toHaveURL(/severity=CRITICAL/);
  expect(await count.count()).toBeLessThanOrEqual(links);
  await expectAccessible(page, 'the check catalog, filtered');
  await page.goto('/checks');
  // The server's HTML is on screen at once; typing waits for the app to take it over.
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Search').fill('canonical');
  await expect(page.getByText(/ of \d+ checks/)).toBeVisible();
  for (const text of await page.locator('.check-list > li').allInnerTexts())
    expect(text.toLowerCase()).toContain('canonical');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the check catalog');
  await page.locator('.check-list').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 2, name: 'How to fix it' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'a check page');
  await expectAccessible(page, 'a check page');
});

test('a project disables a check and changes a severity, by keyboard, then resets them', async ({ page }) => {
  await signUp(page, 'Check Settings');
  await createProject(page, `https://checks-${uniq()}.example.com`, 'Check settings site');
  const projectUrl = page.url();
  await page.goto(`${projectUrl}/settings`);
  await page.getByRole('link', { name: 'Check settings', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checks' })).toBeVisible();
  await expect(page.getByText(/\(0 changed\)/)).toBeVisible();

  // The enable switch, by keyboard.
  const toggle = page.getByRole('switch', { name: 'Missing title: enabled' });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).not.toBeChecked();
  await expect(page.getByText(/\(1 changed\)/)).toBeVisible();

  // The severity select, by keyboard.
  const select = page.getByRole('button', { name: /Severity of Title too long/ });
  await select.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: 'Notice' }).click();
  await expect(page.getByText(/\(2 changed\)/)).toBeVisible();
  await expect(page.getByText('Default: Warning')).toBeVisible();

  // Only the changed ones; then reset both.
  await page.getByRole('button', { name: /Show$/ }).click();
  await page.getByRole('option', { name: 'Changed only' }).click();
  await expect(page.getByText(/^2 of \d+ checks$/)).toBeVisible();
  await expectAccessible(page, 'the project check settings');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the project check settings');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Reset to default: Missing title' }).click();
  await page.getByRole('button', { name: 'Reset to default: Title too long' }).click();
  await expect(page.getByText(/\(0 changed\)/)).toBeVisible();
  // The settings are stored: a reload shows them.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Missing title: enabled' })).toBeChecked();
});
