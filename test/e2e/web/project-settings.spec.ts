import type { Page } from '@playwright/test';
import { expectAccessible, signUp, test, expect, uniq, reviewShot } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';
import { startFixtureSite, type RunningSite } from '../../fixtures/sites/fixture-server';

let site: FixtureSite;
/** A second site served over http only, to be given as a bare `127.0.0.1:port`. */
let plain: RunningSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
  plain = await startFixtureSite({ host: '127.0.0.1' });
  plain.serve({ '/': { body: '<!doctype html><html lang="en"><title>Plain</title><p>Plain http.</p></html>' } });
});
test.afterAll(async () => {
  await site?.close();
  await plain?.close();
});

async function createProject(page: Page, url: string, name?: string): Promise<string> {
  await page.goto('/projects');
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Website URL').fill(url);
  if (name) await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('button', { name: 'Run audit' })).toBeVisible();
  return page.url();
}

test('project settings: every setting editable, errors at the field, a bare domain resolved to http', async ({
  page,
}) => {
  await signUp(page, 'Set Tings');
  // The header's usage counter follows a create without a reload.
  await expect(page.getByRole('button', { name: /projects$/ })).toContainText(/^\D*0\/\d+ projects/);
  await createProject(page, `${site.origin}/about`, 'Garden about');
  await expect(page.getByRole('button', { name: /projects$/ })).toContainText(/1\/\d+ projects/);

  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Crawling' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Garden about');
  await expect(page.getByLabel('Start URL')).toHaveValue(`${site.origin}/about`);
  await expectAccessible(page, 'the project settings');
  await reviewShot(page, 'settings-1280');

  // The API's validation shows at the field it is about.
  await page.getByLabel('Link depth').fill('99');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Link depth must be an integer from 0 to 50')).toBeVisible();
  await expectAccessible(page, 'the settings with an error');
  await page.getByLabel('Link depth').fill('3');
  await page.getByLabel('Delay between requests (ms)').fill('250');
  await page.getByLabel('Country').fill('DE');
  await page.getByText('Mobile', { exact: true }).click();
  await page.getByText('Honour robots.txt').click();
  await page.getByLabel('Name', { exact: true }).fill('Garden');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Link depth')).toHaveValue('3');
  await expect(page.getByLabel('Delay between requests (ms)')).toHaveValue('250');
  await expect(page.getByLabel('Country')).toHaveValue('de');
  await expect(page.getByRole('radio', { name: 'Mobile' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Honour robots.txt/ })).not.toBeChecked();
  await expect(page.getByRole('heading', { level: 1, name: 'Garden' })).toBeVisible();

  // A refused address is explained at the URL field; a bare host:port answering over http only becomes http://.
  await page.getByLabel('Start URL').fill('http://10.1.2.3/');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/private, loopback or reserved address/).first()).toBeVisible();
  await page.getByLabel('Start URL').fill(`127.0.0.1:${plain.port}`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: `http://127.0.0.1:${plain.port}/` })).toBeVisible();
  await expect(page.getByLabel('Start URL')).toHaveValue(`http://127.0.0.1:${plain.port}/`);

  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await reviewShot(page, 'settings-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The danger zone asks before deleting; the project and the counter go.
  await page.getByRole('button', { name: 'Delete project' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Garden?' });
  await confirm.getByRole('button', { name: 'Delete project' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByRole('button', { name: /projects$/ })).toContainText(/0\/\d+ projects/);
});

test('crawl scope and rendering: saved and shown again; a refused pattern is explained at its field', async ({
  page,
}) => {
  await signUp(page, 'Sco Pe');
  await createProject(page, `${site.origin}/`, 'Scoped garden');
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Crawl scope' })).toBeVisible();

  // A regular expression with a back-reference cannot run in linear time: refused, at the field, nothing saved.
  await page.getByLabel('Exclude patterns').fill('/(a)\\1/');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/back-reference, which is not supported/)).toBeVisible();
  await expect(page.getByLabel('Exclude patterns')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'the crawl scope with an error');

  await page.getByLabel('Include patterns').fill('/**\n/[?&]page=\\d+/');
  await page.getByLabel('Exclude patterns').fill('**?sort=*\n/cart/**');
  await page.getByText('Crawl subdomains').click();
  await page.getByText('Drop the listed ones').click();
  await page.getByLabel('Parameters to drop').fill('utm_source, sid');
  // The rendering select, by keyboard.
  await page.getByRole('button', { name: /Rendering/ }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: 'Render JavaScript in a browser' }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Include patterns')).toHaveValue('/**\n/[?&]page=\\d+/');
  await expect(page.getByLabel('Exclude patterns')).toHaveValue('**?sort=*\n/cart/**');
  await expect(page.getByRole('switch', { name: /Crawl subdomains/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Drop the listed ones' })).toBeChecked();
  await expect(page.getByLabel('Parameters to drop')).toHaveValue('utm_source, sid');
  await expect(page.getByRole('button', { name: /Rendering/ })).toContainText('Render JavaScript in a browser');

  // List mode without URLs, and a list URL of another site: the API's reasons, at the list.
  await page.getByText('Only the URLs below').click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/at least one URL/)).toBeVisible();
  await page.getByLabel('List URLs').fill(`${site.origin}/about\nhttps://elsewhere.example.org/`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/elsewhere\.example\.org\/ is not/)).toBeVisible();
  await expect(page.getByLabel('List URLs')).toHaveAttribute('aria-invalid', 'true');

  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await reviewShot(page, 'settings-scope-375');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('Run audit keeps focus; Cancel audit asks first', async ({ page }) => {
  await signUp(page, 'Can Celler');
  await createProject(page, `${site.origin}/slow/`, 'Slow garden');
  // A pause between requests keeps the audit running while the test looks at it.
  await page.goto(`${new URL(page.url()).pathname}/settings`);
  await page.getByLabel('Delay between requests (ms)').fill('3000');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Overview' }).click();
  const run = page.getByRole('button', { name: 'Run audit' });
  await run.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /Audit (queued|running)/ })).toBeVisible();
  await expect(run).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');

  await page.getByRole('button', { name: 'Cancel audit' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel this audit?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'the cancel confirmation');
  await confirm.getByRole('button', { name: 'Keep it running' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('heading', { name: /Audit (queued|running)/ })).toBeVisible();

  await page.getByRole('button', { name: 'Cancel audit' }).click();
  await page
    .getByRole('alertdialog', { name: 'Cancel this audit?' })
    .getByRole('button', { name: 'Cancel audit' })
    .click();
  await expect(page.getByText('The latest audit was cancelled')).toBeVisible();
  await expect(run).toBeFocused();
});

test('a capped crawl says so where its results are read; the explorer tells pages from other URLs', async ({
  page,
}) => {
  await signUp(page, 'Cap Ped');
  await createProject(page, `${site.origin}/slow/`, 'Capped garden');
  await page.goto(`${new URL(page.url()).pathname}/settings`);
  await page.getByLabel('Pages per audit').fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 90_000 });
  await page.getByRole('link', { name: 'View issues' }).click();
  const banner = page.getByRole('note', { name: /^The first 3 of at least \d+ pages$/ });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('The scores and issues cover the pages crawled, not the whole site');
  await expectAccessible(page, 'the issues of a capped audit');
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await expect(banner).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–3 of 3' })).toBeVisible();
  await page.getByText('HTML pages', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–3 of 3' })).toBeVisible();
  await expect(page).toHaveURL(/kind=.*HTML/);
  await page.getByText('Redirects', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–3 of 3' })).toBeVisible();
  await page.getByText('HTML pages', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No URLs match.' })).toBeVisible();
  await expectAccessible(page, 'the pages explorer filtered by type');
});

test('a project link opens in its organization while another one is active', async ({ page }) => {
  await signUp(page, 'Link Follower');
  const projectUrl = await createProject(page, `${site.origin}/guides/herbs`, 'Herb guide');
  const home = "Link Follower's organization";

  // A second organization, made active (better-auth's organization API, as the app's client calls it).
  const name = `Client ${uniq()}`;
  const created = await page.request.post('/api/auth/organization/create', {
    headers: { origin: new URL(page.url()).origin },
    data: { name, slug: name.toLowerCase().replace(/ /g, '-') },
  });
  expect(created.status()).toBe(200);
  await page.goto('/projects');
  await expect(page.getByRole('button', { name: /Organization/ })).toContainText(name);
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();

  // The shared link: the project opens, in the organization that owns it.
  await page.goto(projectUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Herb guide' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Organization/ })).toContainText(home);
  await expectAccessible(page, 'a project opened from a link of another organization');

  // A project of no organization of the user's stays "not found".
  await page.goto('/projects/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { level: 1, name: 'Project not found' })).toBeVisible();
});

test('at 375 px no page scrolls sideways; one audit is one labelled point', async ({ page }) => {
  await signUp(page, 'Small Screen');
  const projectUrl = await createProject(page, `${site.origin}/`, 'Fixture Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(/^Scores of the first completed audit/)).toBeVisible();
  await expect(page.locator('.chart-single-label')).toContainText(/Overall \d+ · /);
  await expect(page.locator('.chart-canvas')).toHaveCount(0);
  await expectAccessible(page, 'the project overview with one audit');
  await reviewShot(page, 'overview-1280');
  const issuesUrl = await page.getByRole('link', { name: 'View issues' }).getAttribute('href');
  const pagesUrl = await page.getByRole('link', { name: 'Crawled pages' }).getAttribute('href');

  await page.setViewportSize({ width: 375, height: 800 });
  const pages: [string, string][] = [
    ['/projects', 'dashboard'],
    [projectUrl, 'overview'],
    [issuesUrl!, 'issues'],
    [pagesUrl!, 'pages'],
    [`${new URL(projectUrl).pathname}/settings`, 'settings'],
    ['/tools', 'tools'],
    ['/tools/meta-tags', 'tool-meta-tags'],
    ['/tools/robots', 'tool-robots'],
    ['/tools/headers', 'tool-headers'],
    ['/tools/sitemap', 'tool-sitemap'],
    ['/settings/api-keys', 'api-keys'],
  ];
  for (const [path, name] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} (${path}) is ${width} px wide at 375 px`).toBeLessThanOrEqual(375);
    await reviewShot(page, `${name}-375`);
  }
  // The header's account menu (and sign-out) is reachable on a phone.
  await page.getByRole('button', { name: /Account/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeInViewport();
});

test("the dashboard's row actions: one menu, by pointer and by keyboard, for the row it was opened from", async ({
  page,
}) => {
  await signUp(page, 'Row Actions');
  await createProject(page, `${site.origin}/`, 'Garden one');
  await createProject(page, `${site.origin}/about`, 'Garden two');
  await page.goto('/projects');
  const second = page.getByRole('button', { name: 'Actions for Garden two' });
  await expect(second).toHaveAttribute('aria-haspopup', 'menu');
  await expect(second).toHaveAttribute('aria-expanded', 'false');

  await second.click();
  const menu = page.getByRole('menu', { name: 'Actions for Garden two' });
  await expect(menu.getByRole('menuitem')).toHaveText(['Open', 'Edit', 'Delete…']);
  await expect(second).toHaveAttribute('aria-expanded', 'true');
  await expectAccessible(page, "the dashboard's open row menu");
  await menu.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit project' });
  await expect(edit.getByLabel('Name')).toHaveValue('Garden two');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Keyboard: Enter opens the row's menu on its first item, Escape closes it and gives focus back to the button.
  const first = page.getByRole('button', { name: 'Actions for Garden one' });
  await first.focus();
  await page.keyboard.press('Enter');
  const firstMenu = page.getByRole('menu', { name: 'Actions for Garden one' });
  await expect(firstMenu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(firstMenu.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(firstMenu).toHaveCount(0);
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('aria-expanded', 'false');

  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await expect(firstMenu.getByRole('menuitem', { name: 'Delete…' })).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Delete Garden one?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  await first.click();
  await firstMenu.getByRole('menuitem', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Garden one' })).toBeVisible();
});

test.describe('scheduled audits', () => {
  // The browser's own zone is the default of a schedule never set.
  test.use({ timezoneId: 'Asia/Tokyo' });

  test('a daily schedule in a chosen time zone shows its next run; a bad zone is refused at the field', async ({
    page,
  }) => {
    await signUp(page, 'Sched Ule');
    await createProject(page, `${site.origin}/`, 'Scheduled garden');
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Scheduled audits' });
    await expect(section.getByRole('heading', { level: 2, name: 'Scheduled audits' })).toBeVisible();
    await expect(section.getByText('Scheduled audits are off.')).toBeVisible();
    await expect(section.getByRole('radio', { name: 'Off' })).toBeChecked();
    const zone = section.getByRole('combobox', { name: 'Time zone' });
    await expect(zone).toHaveValue('Asia/Tokyo');
    await expect(section.getByText('No scheduled audit has run yet.')).toBeVisible();

    // A zone that is not one: refused at the field, nothing saved.
    await section.getByText('Daily', { exact: true }).click();
    await zone.fill('Mars/Olympus');
    await section.getByRole('button', { name: 'Save schedule' }).click();
    await expect(section.getByText('Time zone must be one of the list')).toBeVisible();
    await expectAccessible(page, 'the schedule with an error');

    // Daily at 06:30 in Berlin, the zone found by typing and chosen with the keyboard.
    await section.getByLabel('Time of day', { exact: true }).fill('06:30');
    await zone.fill('Berlin');
    await expect(page.getByRole('option', { name: 'Europe/Berlin', exact: true })).toBeVisible();
    await zone.press('ArrowDown');
    await zone.press('Enter');
    await expect(zone).toHaveValue('Europe/Berlin');
    await section.getByRole('button', { name: 'Save schedule' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    const next = section.getByText(/^Next audit:/).locator('time');
    await expect(next).toContainText('(Europe/Berlin)');
    const at = Date.parse((await next.getAttribute('datetime'))!);
    expect(at).toBeGreaterThan(Date.now());
    expect(at - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    expect(berlin.format(at)).toBe('06:30');
    await expectAccessible(page, 'the scheduled audits section');

    // Stored: the page reloads with the schedule.
    await page.reload();
    await expect(section.getByRole('radio', { name: 'Daily' })).toBeChecked();
    await expect(section.getByLabel('Time of day', { exact: true })).toHaveValue('06:30');
    await expect(zone).toHaveValue('Europe/Berlin');
    await expect(section.getByText(/^Next audit:/)).toContainText('(Europe/Berlin)');

    // Weekly shows its day; off again (the test database is shared: no schedule stays on).
    await section.getByText('Weekly', { exact: true }).click();
    await expect(section.getByRole('button', { name: /Day of the week/ })).toBeVisible();
    await section.getByText('Off', { exact: true }).click();
    await section.getByRole('button', { name: 'Save schedule' }).click();
    await expect(section.getByText('Scheduled audits are off.', { exact: true })).toBeVisible();
  });
});
