import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  screenshotFor,
  signUp,
  test,
  uniq,
  createProject,
  reviewShot,
  SHOTS_DIR,
} from './fixtures';
import { startSerpFixture } from './serp-fixture';

/**
 * Keywords of a project: added in bulk, checked through a local SearXNG-protocol fixture (the platform runs with
 * SERP_PROVIDER=searxng pointed at it), so the positions shown are the ones the fixture ranks the site at.
 */
const domain = `garden-${uniq()}.example`;
let serp: { close(): Promise<void> } | undefined;

test.beforeAll(async () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `https://other-${i}.example/page`);
  serp = await startSerpFixture((q) => {
    if (q === 'broken query') return { status: 400 };
    const results = filler(10);
    if (q === 'balcony herbs') results[2] = `https://${domain}/guides/herbs`;
    if (q === 'balcony plants') results[0] = `https://www.${domain}/`;
    return results;
  });
});
test.afterAll(async () => {
  await serp?.close();
});

async function newProject(page: Page, name: string): Promise<void> {
  await signUp(page);
  await createProject(page, `https://${domain}/`, name);
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Keywords' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Keywords' })).toBeVisible();
}

const table = (page: Page) => page.getByRole('table', { name: /Tracked keywords/ });
const row = (page: Page, term: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${term}`) }) });

test('keywords: add in bulk, check rankings, charts, filter and sort in the URL, remove', async ({ page }) => {
  // A real rank check through the rank worker, then charts, filters and a removal: more than the default 2 minutes
  // on a loaded machine.
  test.setTimeout(240_000);
  await newProject(page, 'Balcony Garden');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Projects/Balcony Garden/Keywords');
  await expect(page.getByRole('heading', { name: 'No keywords yet' })).toBeVisible();
  // The server has a provider: no warning that positions cannot be checked.
  await expect(page.getByText('No SERP provider is configured')).toHaveCount(0);
  await expectAccessible(page, 'the empty keywords page');

  // Bulk add: each line says what will happen to it before anything is sent.
  await page.getByRole('button', { name: 'Add keywords' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add keywords' });
  const lines = ['balcony herbs', 'Balcony  Herbs', 'balcony plants', 'not ranking term', 'broken query'];
  await dialog.getByLabel('Keywords, one per line').fill([...lines, 'x'.repeat(201)].join('\n'));
  await expect(dialog.getByText('Line 2: “Balcony Herbs” repeats line 1; added once.')).toBeVisible();
  await expect(dialog.getByText('Line 6: longer than 200 characters (201); shorten it.')).toBeVisible();
  await expect(dialog.getByText(/Enterprise plan: 0 of [\d,]+ keywords used in this project/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add 4 keywords' })).toBeDisabled();
  await expectAccessible(page, 'the add keywords dialog');
  await dialog.getByLabel('Keywords, one per line').fill(lines.join('\n'));
  await dialog.getByRole('button', { name: 'Add 4 keywords' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Added 4 keywords; 1 line skipped (repeats or already tracked).')).toBeVisible();
  await expect(table(page).getByRole('rowheader')).toHaveCount(4);
  await expect(row(page, 'balcony herbs')).toContainText('never');

  // A check runs in the rank worker against the fixture; the page polls until every keyword has its result.
  await page.getByRole('button', { name: 'Check rankings now' }).click();
  await expect(page.getByText(/Rank check queued for 4 keywords|Checking rankings/).first()).toBeVisible();
  await expect(page.getByText('Rank check finished: 4 keywords checked.')).toBeVisible({ timeout: 90_000 });
  await expect(row(page, 'balcony herbs').getByRole('cell').nth(1)).toHaveText('3');
  await expect(row(page, 'balcony plants').getByRole('cell').nth(1)).toHaveText('1');
  await expect(row(page, 'not ranking term').getByRole('cell').nth(1)).toHaveText('not found');
  await expect(
    row(page, 'balcony herbs').getByRole('link', { name: `https://${domain}/guides/herbs` }),
  ).toHaveAttribute('href', `https://${domain}/guides/herbs`);
  // A failed check shows its reason in the row, and no position.
  await expect(row(page, 'broken query')).toContainText(/Last check failed: .*400/);
  await expect(row(page, 'balcony herbs')).toContainText('US · desktop · en');
  // The first check that finds a keyword: new in the results (back in the results is for a return).
  await expect(row(page, 'balcony herbs').getByRole('cell').nth(2)).toContainText('new in the results');
  await expectAccessible(page, 'the keywords table with positions');
  await page.setViewportSize({ width: 1280, height: 900 });
  await reviewShot(page, 'keywords-1280');
  await screenshotFor(page, 'keywords');

  // One keyword's history: a chart with its text alternative.
  await row(page, 'balcony herbs').getByRole('button', { name: 'History of “balcony herbs”' }).click();
  const history = page.getByRole('dialog', { name: 'Position history' });
  await expect(
    history.getByRole('figure', { name: /Position of “balcony herbs” over the last 30 days/ }),
  ).toBeVisible();
  const checks = history.getByRole('table', { name: 'Checks of “balcony herbs”, newest first' });
  await expect(checks.getByRole('row')).toHaveCount(2);
  await expect(checks.getByRole('cell').first()).toHaveText('3');
  await expect(checks.getByRole('link', { name: `https://${domain}/guides/herbs` })).toBeVisible();
  await expect(history.getByText('1 check · latest position 3 · best 3, worst 3.')).toBeVisible();
  await expect(history.locator('canvas')).toHaveCount(1);
  await expectAccessible(page, 'the position history dialog');
  await reviewShot(page, 'keyword-history-1280');
  await history.getByRole('button', { name: 'Close' }).click();
  await expect(history).toBeHidden();

  // Several keywords in one chart, kept in the URL, with a summary table.
  // The box a person clicks is the checkbox's label (react-aria keeps the input itself visually hidden).
  const tick = (term: string) =>
    page.locator('label', { has: page.getByRole('checkbox', { name: `Compare “${term}”` }) }).click();
  await tick('balcony herbs');
  await tick('balcony plants');
  await expect(page.getByRole('checkbox', { name: 'Compare “balcony plants”' })).toBeChecked();
  const compare = page.getByRole('region', { name: 'Comparing 2 keywords' });
  await expect(compare.getByRole('figure', { name: /Positions of 2 keywords/ })).toBeVisible();
  const summary = compare.getByRole('table', { name: 'Summary of the compared keywords' });
  await expect(summary.getByRole('row', { name: /balcony plants/ })).toContainText('1');
  await expect(page).toHaveURL(/compare=/);

  // Filter and sort: the view is in the URL, and a reload shows it again.
  await page.getByLabel('Search keywords or URLs').fill('balcony');
  await expect(table(page).getByRole('rowheader')).toHaveCount(2);
  await expect(page).toHaveURL(/[?&]q=balcony/);
  await table(page)
    .getByRole('button', { name: /^Position/ })
    .click();
  await expect(page).toHaveURL(/sort=position/);
  await expect(table(page).getByRole('rowheader').first()).toHaveText('balcony plants');
  await table(page)
    .getByRole('button', { name: /^Position/ })
    .click();
  await expect(page).toHaveURL(/dir=desc/);
  await expect(table(page).getByRole('rowheader').first()).toHaveText('balcony herbs');
  await page.reload();
  await expect(table(page).getByRole('rowheader')).toHaveCount(2);
  await expect(page.getByLabel('Search keywords or URLs')).toHaveValue('balcony');
  await expect(table(page).getByRole('columnheader', { name: /Position/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('region', { name: 'Comparing 2 keywords' })).toBeVisible();
  if (SHOTS_DIR) {
    await page.setViewportSize({ width: 375, height: 800 });
    await reviewShot(page, 'keywords-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // Remove, after a confirmation.
  await page.getByLabel('Search keywords or URLs').fill('');
  await expect(table(page).getByRole('rowheader')).toHaveCount(4);
  await row(page, 'broken query').getByRole('button', { name: 'Remove “broken query”' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove this keyword?' });
  await expect(confirm).toContainText('“broken query” will no longer be tracked');
  await confirm.getByRole('button', { name: 'Remove keyword' }).click();
  await expect(page.getByText('Removed “broken query” and its ranking history.')).toBeVisible();
  await expect(table(page).getByRole('rowheader')).toHaveCount(3);
  await expect(row(page, 'broken query')).toHaveCount(0);
});

test('keywords: without a SERP provider the page says so and how to set one', async ({ page }) => {
  // This server has a provider (the fixture); what the API says without one (rankTracking.providerConfigured false,
  // tested in test/integration/keyword-history.test.ts) is given to the page here, to see how it is shown.
  await page.route('**/graphql', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    if (body?.data?.rankTracking) body.data.rankTracking = { providerConfigured: false, provider: null };
    await route.fulfill({ response, json: body });
  });
  await newProject(page, 'No Provider Garden');
  const note = page.getByRole('note', { name: 'No SERP provider is configured, so no position can be checked' });
  await expect(note).toBeVisible();
  await expect(note).toContainText('SERP_PROVIDER');
  await expect(note).toContainText('a position is never guessed');
  await expect(note).toContainText("The manual's Configuration page (docs/configuration.md) lists every setting.");
  await expectAccessible(page, 'the keywords page without a provider');
  await reviewShot(page, 'keywords-no-provider-1280');
});
