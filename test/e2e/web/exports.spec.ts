import { readFile } from 'node:fs/promises';
import { expectAccessible, signUp, test, expect, createProject, reviewShotsAtBothWidths } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('after an audit, the issues CSV downloads from the issues list and the report downloads as PDF', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/sign-up');
  await signUp(page);
  await createProject(page, `${site.origin}/`, 'Export Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 120_000 });

  // The issues list: Export CSV saves the server's file (one row per issue occurrence).
  await page.getByRole('link', { name: 'View issues' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download issues as CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^127\.0\.0\.1-audit-[0-9a-f]{8}-issues-\d{4}-\d\d-\d\d\.csv$/);
  const text = await readFile((await csv.path())!, 'utf8');
  const lines = text.replace(/^\uFEFF/, '').split('\r\n');
  expect(lines[0]).toBe('code,title,severity,category,url,scope,evidence');
  expect(lines.length).toBeGreaterThan(2);
  expect(text).toContain(`${site.origin}/`);
  await expect(page.getByRole('status').filter({ hasText: /Downloaded .*\.csv/ })).toBeVisible();
  await expectAccessible(page, 'the issues list with its export buttons');

  // The pages explorer exports its table as shown (JSON).
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible();
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the table as shown as JSON' }).click(),
  ]);
  const doc = JSON.parse(await readFile((await json.path())!, 'utf8'));
  expect(doc.columns[0].key).toBe('url');
  expect(doc.rows.some((r: { url: string }) => r.url === `${site.origin}/gone`)).toBe(true);

  // The client report: rendered by the app, printable, and as a PDF rendered by the server.
  await page.getByRole('link', { name: 'Export Garden' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Report' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'SEO report: Export Garden' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top issues and how to fix them' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await expectAccessible(page, 'the client report');
  const [pdf] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Download PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await readFile((await pdf.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await reviewShotsAtBothWidths(page, 'report');
});
