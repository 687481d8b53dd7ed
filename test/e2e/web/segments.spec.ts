import { createProject, expect, expectAccessible, reviewShot, reviewShotsAtBothWidths, signUp, test } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('segments: created on the settings page, chosen on the pages explorer with its counts, kept in the URL', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page);
  await createProject(page, `${site.origin}/`, 'Segment Garden');
  const projectPath = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 120_000 });

  // Settings → Segments: a path prefix for the guides.
  await page.goto(`${projectPath}/settings`);
  const section = page.getByRole('region', { name: 'Segments' });
  await expect(section.getByText('No segments yet.')).toBeVisible();
  await section.getByRole('textbox', { name: 'Segment name' }).fill('Guides');
  await section.getByRole('textbox', { name: 'Path prefix' }).fill('guides/');
  await section.getByRole('button', { name: 'Add segment' }).click();
  // The server's reason at the field: a path prefix starts with a slash.
  await expect(section.getByText(/starts with \//)).toBeVisible();
  await section.getByRole('textbox', { name: 'Path prefix' }).fill('/guides/');
  await section.getByRole('button', { name: 'Add segment' }).click();
  await expect(section.getByRole('rowheader', { name: 'Guides' })).toBeVisible();
  await expect(section.getByRole('cell', { name: 'Path starts with /guides/' })).toBeVisible();
  await expectAccessible(page, 'the Segments section of the project settings');

  // The pages explorer: choose the segment; the table holds its URLs, the summary its counts.
  await page.goto(projectPath);
  await page.getByRole('link', { name: 'View issues' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();
  // A server-rendered page is taken over by the app: a click during the takeover can be lost (on a loaded machine
  // it was), so it is retried until the explorer opens.
  await expect(async () => {
    await page.getByRole('link', { name: 'Pages', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole('button', { name: /Segment/ }).click();
  await page.getByRole('option', { name: 'Guides' }).click();
  await expect(page).toHaveURL(/seg=/);
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–1 of 1' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: `${site.origin}/guides/herbs` })).toBeVisible();
  const summary = page.getByRole('region', { name: 'Segment Guides' });
  await expect(summary.getByRole('definition').first()).toHaveText('1');
  await expect(summary.getByText('Health')).toBeVisible();
  await expectAccessible(page, 'the pages explorer with a segment chosen');

  // The choice is in the URL: a reload shows the same segment.
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–1 of 1' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Segment Guides' })).toBeVisible();

  // The column "Segments" names the segments a URL is in.
  await page.getByText(/^Columns \(\d+\)$/).click();
  await page.getByRole('checkbox', { name: 'Segments', exact: true }).check();
  const table = page.getByRole('table', { name: /^Crawled pages, sorted by/ });
  await expect(table.getByRole('columnheader', { name: /Segments/ })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(`${site.origin}/guides/herbs`) })).toContainText('Guides');

  // The issues page with the segment chosen: only the checks found on its URL, counted there.
  const explorer = new URL(page.url());
  const issuesPath = explorer.pathname.replace(/\/pages$/, '');
  await page.goto(issuesPath);
  const list = page.getByRole('list', { name: /^Issues/ });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  const allIssues = await list.getByRole('listitem').count();
  await page.goto(`${issuesPath}?seg=${explorer.searchParams.get('seg')}`);
  await expect(page.getByRole('region', { name: 'Segment Guides' })).toBeVisible();
  await expect(list.getByRole('listitem').first()).toContainText('in segment');
  const inSegment = await list.getByRole('listitem').count();
  expect(inSegment).toBeGreaterThan(0);
  expect(inSegment).toBeLessThan(allIssues);
  for (const item of await list.getByRole('listitem').all()) await expect(item).toContainText('1 page, ');
  await expectAccessible(page, 'the issues page narrowed to a segment');

  // An issue opened from the narrowed list: its URLs in the segment only, the segment kept in the URL.
  const firstIssue = list.getByRole('listitem').first();
  await firstIssue.getByRole('button', { expanded: false }).first().click();
  await firstIssue.getByRole('link', { name: /^Open its 1 affected URL$/ }).click();
  await expect(page).toHaveURL(/\/issues\/[^?]+\?(.*&)?seg=/);
  await expect(page.getByText(/^URLs 1–1 of 1\b/)).toBeVisible();
  await expectAccessible(page, "an issue's URLs narrowed to a segment");
  await reviewShotsAtBothWidths(page, 'issue-urls-segment');
  // The segment picker, opened from the keyboard.
  await page.getByRole('button', { name: /Segment/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('option', { name: 'Guides' })).toBeVisible();
  await reviewShot(page, 'issue-urls-segment-picker-1280');
  await page.keyboard.press('Escape');

  // An alert rule watching the segment: chosen in the rule's dialog, said in its description.
  await page.goto(`${projectPath}/alerts`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add alert rule' });
  await dialog.getByRole('button', { name: /Watch/ }).click();
  await expect(page.getByRole('option', { name: 'Guides' })).toBeVisible();
  await reviewShot(page, 'alert-rule-watch-open-1280');
  await page.getByRole('option', { name: 'Guides' }).click();
  await reviewShot(page, 'alert-rule-watch-1280');
  await dialog.getByLabel('Points').fill('5');
  await expectAccessible(page, 'the add rule dialog watching a segment');
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(dialog).toHaveCount(0);
  const rules = page.getByRole('table', { name: 'Alert rules of the project' });
  await expect(
    rules.getByRole('rowheader', { name: 'Overall score drops by 5 points or more, in the segment “Guides”' }),
  ).toBeVisible();
});
