import { readFile } from 'node:fs/promises';
import {
  createProject,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  reviewShotsAtBothWidths,
  screenshotFor,
  signUp,
  test,
} from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('the URL table: columns chosen and remembered, sort, filter builder, view in the URL, export as shown', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page);
  await createProject(page, `${site.origin}/`, 'Table Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 120_000 });
  await page.getByRole('link', { name: 'View issues' }).click();
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Crawled pages, sorted by URL ascending/ })).toBeVisible();
  const table = page.getByRole('table', { name: /^Crawled pages, sorted by/ });
  await expect(table.getByRole('rowheader', { name: `${site.origin}/gone` })).toBeVisible();

  // Column chooser: add Inlinks and H1 count, drop Depth.
  await page.getByText('Columns (7)').click();
  await page.getByRole('checkbox', { name: 'Inlinks', exact: true }).check();
  await page.getByRole('checkbox', { name: 'H1 count', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Depth', exact: true }).uncheck();
  await expect(table.getByRole('columnheader', { name: /H1 count/ })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /Depth/ })).toHaveCount(0);
  await expect(page).toHaveURL(/cols=/);

  // Sort by clicking a header: words, descending on the second click.
  await table.getByRole('button', { name: /^Words/ }).click();
  await expect(table.getByRole('columnheader', { name: /Words/ })).toHaveAttribute('aria-sort', 'ascending');
  await table.getByRole('button', { name: /^Words/ }).click();
  await expect(page.getByRole('table', { name: /sorted by Words descending/ })).toBeVisible();

  // Filter builder: status is 404, OR the H1 count is more than 1 (the herbs guide has two).
  await page.getByText('Filter builder').click();
  const builder = page.getByRole('form', { name: 'Filter builder' });
  await builder.getByRole('button', { name: 'Add condition' }).click();
  await builder.getByLabel('Field of condition 1').selectOption({ label: 'Status' });
  await builder.getByLabel('Operator of condition 1').selectOption({ label: 'is' });
  await builder.getByLabel('Value of condition 1').fill('404');
  await builder.getByRole('button', { name: 'Add condition' }).click();
  await builder.getByLabel('Field of condition 2').selectOption({ label: 'H1 count' });
  await builder.getByLabel('Operator of condition 2').selectOption({ label: '>' });
  await builder.getByLabel('Value of condition 2').fill('1');
  await builder.getByLabel('Match').selectOption('OR');
  await builder.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–2 of 2' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: `${site.origin}/gone` })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: `${site.origin}/guides/herbs` })).toBeVisible();
  await expectAccessible(page, 'the URL table with its column chooser and filter builder');

  // The whole view is in the URL: a reload (or a shared link) shows the same table.
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–2 of 2' })).toBeVisible();
  await expect(page.getByRole('table', { name: /sorted by Words descending/ })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /H1 count/ })).toBeVisible();

  // A bad value is refused with the server's reason, not a crash.
  await page.getByRole('form', { name: 'Filter builder' }).getByLabel('Value of condition 1').fill('four');
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByText(/must be a whole number/)).toBeVisible();
  await page.getByRole('form', { name: 'Filter builder' }).getByLabel('Value of condition 1').fill('404');
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–2 of 2' })).toBeVisible();

  // Export as shown: the CSV has the chosen columns, the filter's rows, in the sort's order.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the table as shown as CSV' }).click(),
  ]);
  const lines = (await readFile((await csv.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toBe('URL,Status,Title,Words,Response time (ms),Issues,Inlinks,H1 count');
  expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([`${site.origin}/guides/herbs`, `${site.origin}/gone`]);
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the table as shown as XLSX' }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^urls-[0-9a-f]{8}\.xlsx$/);
  expect((await readFile((await xlsx.path())!)).subarray(0, 2).toString('latin1')).toBe('PK');

  // The chosen columns are remembered for this user: the explorer without a view in its URL shows them.
  await page.goto(page.url().split('?')[0]);
  await expect(page.getByRole('columnheader', { name: /H1 count/ })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /Depth/ })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^URLs 1–\d+ of \d+$/ })).toBeVisible();
  await page.getByRole('navigation', { name: 'Audit views' }).evaluate((nav) => nav.scrollIntoView());
  await screenshotFor(page, 'url-table');

  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the URL table at 375 px');
  await page.setViewportSize({ width: 1280, height: 900 });
  await reviewShotsAtBothWidths(page, 'url-table');
});

test("an issue's URLs: the URL table of its check, evidence as columns, export as shown, won't fix a row", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, 'Issue Tabler');
  await createProject(page, `${site.origin}/`, 'Issue Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 120_000 });
  await page.getByRole('link', { name: 'View issues' }).click();

  // Open the issue: its URLs are a table (ranking pages first until a column is sorted), its evidence in columns.
  await page
    .getByRole('button', { name: /Broken internal link/ })
    .first()
    .click();
  await page.getByRole('link', { name: /^Open its \d+ affected URLs?$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Broken internal link/ })).toBeVisible();
  const broken = page.getByRole('table', { name: 'Affected URLs, ranking pages first' });
  await expect(broken.getByRole('columnheader', { name: 'Links: url' })).toBeVisible();
  const gone = broken.getByRole('row').filter({ hasText: `${site.origin}/gone` });
  await expect(gone.getByRole('cell', { name: '404' })).toBeVisible();
  await expect(gone.getByRole('cell', { name: 'Old offer' })).toBeVisible();
  await expectAccessible(page, "an issue's URL table with its evidence columns");
  // Evidence columns sort too.
  await broken.getByRole('button', { name: /^Links: status/ }).click();
  await expect(page.getByRole('table', { name: 'Affected URLs, sorted by Links: status ascending' })).toBeVisible();

  // Another issue, three URLs: choose a column, sort, filter, export as shown.
  await page.goBack();
  await page
    .getByRole('button', { name: /Missing meta description/ })
    .first()
    .click();
  await page.getByRole('link', { name: /^Open its 3 affected URLs$/ }).click();
  const table = page.getByRole('table', { name: /^Affected URLs, / });
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–3 of 3 · ranking pages first' })).toBeVisible();
  await page.getByText(/^Columns \(\d+\)$/).click();
  await page.getByRole('checkbox', { name: 'Status', exact: true }).check();
  await expect(table.getByRole('columnheader', { name: /Status/ })).toBeVisible();
  await table.getByRole('button', { name: /^Words/ }).click();
  await table.getByRole('button', { name: /^Words/ }).click();
  await expect(page.getByRole('table', { name: 'Affected URLs, sorted by Words descending' })).toBeVisible();
  await expect(page).toHaveURL(/sort=words/);
  await page.getByText('Filter builder').click();
  const builder = page.getByRole('form', { name: 'Filter builder' });
  await builder.getByRole('button', { name: 'Add condition' }).click();
  await builder.getByLabel('Field of condition 1').selectOption({ label: 'URL' });
  await builder.getByLabel('Operator of condition 1').selectOption({ label: 'does not contain' });
  await builder.getByLabel('Value of condition 1').fill('xss');
  await builder.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–2 of 2' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Affected URLs, sorted by Words descending' }).getByRole('rowheader');
  await expect(rows).toHaveText([`${site.origin}/`, `${site.origin}/guides/herbs`]);
  await expectAccessible(page, "an issue's URL table, sorted and filtered");

  // The view is in the URL: a reload shows the same table; the export is that view of this issue only.
  await page.reload();
  await expect(rows).toHaveText([`${site.origin}/`, `${site.origin}/guides/herbs`]);
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the table as shown as CSV' }).click(),
  ]);
  const lines = (await readFile((await csv.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toMatch(/^URL,Title,Words,Inlinks,Ranking keywords,Best position,Status\b/);
  expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([`${site.origin}/`, `${site.origin}/guides/herbs`]);

  // Won't fix, on a row, from the keyboard: a reason; who and when shown on the row; undone.
  const herbs = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: `${site.origin}/guides/herbs` }) });
  await herbs.getByRole('button', { name: `Won't fix ${site.origin}/guides/herbs` }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: "Won't fix" });
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.type('A guide page: its description comes with the redesign.');
  await page.keyboard.press('Tab');
  await dialog.getByRole('button', { name: "Mark as won't fix" }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(herbs).toContainText("Won't fix: A guide page: its description comes with the redesign. — Issue Tabler");
  await expectAccessible(page, "an issue's URL table with a won't fix row");
  await page.getByText(/^Filter builder/).click();
  await page.getByRole('navigation', { name: 'Audit views' }).evaluate((nav) => nav.scrollIntoView());
  await screenshotFor(page, 'issue-urls');
  await herbs.getByRole('button', { name: `Undo won't fix of ${site.origin}/guides/herbs` }).click();
  await expect(herbs.getByRole('button', { name: `Won't fix ${site.origin}/guides/herbs` })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, "an issue's URL table at 375 px");
  await page.setViewportSize({ width: 1280, height: 900 });
  await reviewShotsAtBothWidths(page, 'issue-urls');
});
