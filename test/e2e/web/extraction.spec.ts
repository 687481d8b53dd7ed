import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createProject, expect, expectAccessible, reviewShotsAtBothWidths, signUp, test } from './fixtures';
import { fixturePages } from './fixture-site';
import { startFixtureSite, type RunningSite } from '../../fixtures/sites/fixture-server';

/** Screenshots of the settings section and the explorer's column, for looking at the change (not compared). */
const SHOTS = process.env.EXTRACTION_SHOTS_DIR ?? '/tmp/shots-extui';

let site: RunningSite;
test.beforeAll(async () => {
  site = await startFixtureSite({ host: '127.0.0.1', fallback: { status: 404, body: 'Not found' } });
  site.serve(fixturePages(site.origin));
});
test.afterAll(async () => {
  await site?.close();
});

async function runAudit(p: Page, completed: number): Promise<void> {
  await p.getByRole('button', { name: 'Run audit' }).click();
  const audits = p.getByRole('region', { name: 'Audits' });
  await expect(audits.getByRole('row').filter({ hasText: 'Completed' })).toHaveCount(completed, { timeout: 120_000 });
}

test('extraction: an extractor added in settings is a column of the explorer, filtered, exported, compared', async ({
  page,
}) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  await signUp(page, 'Ex Tractor');
  await createProject(page, `${site.origin}/`, 'Heading Garden');
  const projectPath = new URL(page.url()).pathname;

  // Settings → Extraction: a selector that does not compile is refused with the server's reason at the field.
  await page.goto(`${projectPath}/settings`);
  const section = page.getByRole('region', { name: 'Extraction', exact: true });
  await expect(section.getByText('No extractors yet.')).toBeVisible();
  await section.getByRole('textbox', { name: 'Extractor name' }).fill('Main heading');
  const expression = section.getByRole('textbox', { name: 'Expression' });
  await expression.fill('h1[');
  await section.getByRole('button', { name: 'Add extractor' }).click();
  await expect(expression).toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByText(/^Invalid CSS selector: /)).toBeVisible();
  // Fixed and saved from the keyboard: Enter in the field submits the form.
  await expression.fill('h1');
  await expression.press('Enter');
  await expect(section.getByRole('rowheader', { name: /Main heading/ })).toBeVisible();
  await expect(section.getByText('extract.main_heading')).toBeVisible();
  await expect(section.getByRole('status').filter({ hasText: 'Saved extractor "Main heading"' })).toBeVisible();
  await expect(section.getByText(/^Invalid CSS selector/)).toHaveCount(0);
  // Edit fills the form with the extractor; Cancel editing leaves it as it was.
  await section.getByRole('button', { name: 'Edit extractor Main heading' }).click();
  await expect(section.getByRole('heading', { name: 'Edit extractor "Main heading"' })).toBeVisible();
  await expect(section.getByRole('textbox', { name: 'Extractor name' })).toHaveValue('Main heading');
  await expect(expression).toHaveValue('h1');
  await section.getByRole('button', { name: 'Cancel editing' }).click();
  await expect(section.getByRole('heading', { name: 'New extractor' })).toBeVisible();
  await expectAccessible(page, 'the Extraction section of the project settings');
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: `${SHOTS}/settings-extraction-1280.png` });
  await reviewShotsAtBothWidths(page, 'settings-extraction');

  // The audit runs the extractor on every HTML page.
  await page.goto(projectPath);
  await runAudit(page, 1);

  // The pages explorer: the extractor's column in the chooser, its values, a filter on it.
  await page.getByRole('link', { name: 'View issues' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();
  await expect(async () => {
    await page.getByRole('link', { name: 'Pages', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const table = page.getByRole('table', { name: /^Crawled pages, sorted by/ });
  await expect(table.getByRole('rowheader', { name: `${site.origin}/about` })).toBeVisible();
  await page.getByText(/^Columns \(\d+\)$/).click();
  await page.getByRole('checkbox', { name: 'Main heading', exact: true }).check();
  await expect(table.getByRole('columnheader', { name: /Main heading/ })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `${site.origin}/about` })).toContainText('About us');
  // The first match only: the herbs guide has two headings.
  const herbs = table.getByRole('row').filter({ hasText: `${site.origin}/guides/herbs` });
  await expect(herbs.getByRole('cell', { name: 'Herbs', exact: true })).toHaveCount(2);
  await expect(herbs).not.toContainText('Growing herbs');
  // Crawled content is text: the strange page's heading is shown, nothing of the page runs.
  const strange = table.getByRole('row').filter({ hasText: `${site.origin}/xss` });
  await expect(strange.getByRole('cell', { name: 'Strange', exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await page.screenshot({ path: `${SHOTS}/explorer-extraction-1280.png`, fullPage: true });

  await page.getByText('Filter builder').click();
  const builder = page.getByRole('form', { name: 'Filter builder' });
  await builder.getByRole('button', { name: 'Add condition' }).click();
  await builder.getByLabel('Field of condition 1').selectOption({ label: 'Main heading' });
  await builder.getByLabel('Operator of condition 1').selectOption({ label: 'contains' });
  await builder.getByLabel('Value of condition 1').fill('herb');
  await builder.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–1 of 1' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: `${site.origin}/guides/herbs` })).toBeVisible();
  await expectAccessible(page, 'the pages explorer with an extractor column and a filter on it');

  // Export as shown: the extractor's column, labelled with its name, and the filtered row's value.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the table as shown as CSV' }).click(),
  ]);
  const lines = (await readFile((await csv.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  const header = lines[0].split(',');
  expect(header).toContain('Main heading');
  expect(lines).toHaveLength(2);
  expect(lines[1].split(',')[header.indexOf('Main heading')]).toBe('Herbs');
  expect(lines[1].split(',')[0]).toBe(`${site.origin}/guides/herbs`);

  // A second audit after the herbs guide changed its heading: the comparison lists the change, before and after.
  site.serve({
    ...fixturePages(site.origin),
    '/guides/herbs': {
      body:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Herbs</title></head><body>' +
        '<h1>Herbs &amp; spices</h1><p>Basil, mint and thyme grow well in pots.</p><a href="/">Home</a></body></html>',
    },
  });
  await page.goto(projectPath);
  await runAudit(page, 2);
  await page.goto(`${projectPath}/compare`);
  await expect(page.getByRole('heading', { level: 1, name: 'Changes between audits' })).toBeVisible();
  const values = page.getByRole('region', { name: 'Extracted values' });
  await expect(values.getByText('1 changed · 0 appeared · 0 disappeared')).toBeVisible();
  await values.getByRole('button', { name: 'Show pages whose Main heading changed (1)' }).click();
  const changed = values.getByRole('row').filter({ hasText: `${site.origin}/guides/herbs` });
  await expect(changed.getByRole('cell', { name: 'Herbs', exact: true })).toBeVisible();
  await expect(changed.getByRole('cell', { name: 'Herbs & spices', exact: true })).toBeVisible();
  await expectAccessible(page, 'the comparison with its extracted values');
  await values.screenshot({ path: `${SHOTS}/comparison-extraction-1280.png` });

  // Deleted in settings after a confirmation: the next audits no longer run it.
  await page.goto(`${projectPath}/settings`);
  await section.getByRole('button', { name: 'Delete extractor Main heading' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete extractor "Main heading"?' })
    .getByRole('button', { name: 'Delete extractor' })
    .click();
  await expect(section.getByText('No extractors yet.')).toBeVisible();
  await expect(section.getByRole('status').filter({ hasText: 'Deleted extractor "Main heading".' })).toBeVisible();
});
