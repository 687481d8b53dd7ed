import { readFile } from 'node:fs/promises';
import {
  createProject,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  reviewShotsAtBothWidths,
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

  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the URL table at 375 px');
  await page.setViewportSize({ width: 1280, height: 900 });
  await reviewShotsAtBothWidths(page, 'url-table');
});
