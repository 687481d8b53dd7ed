import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Page } from '@playwright/test';
import {
  createProject,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  reviewShotsAtBothWidths,
  signUp,
  test,
  uniq,
} from './fixtures';
import { startRankingSerpFixture, type SerpFixture } from './serp-fixture';

/**
 * Cannibalisation as an SEO meets it: a rank check through the rank worker and the local SearXNG-protocol fixture
 * finds two of the site's URLs (one with www. and http) for one term; a check three days before (stored as the rank
 * worker stores it) had found only one. The Cannibalisation tab lists the term with both URLs and their positions
 * over time, filters by text and minimum, and the history dialog gives the URL of every check.
 */
const domain = `pots-${uniq()}.example`;
const GUIDE = `https://${domain}/guides/growing-herbs-in-small-pots-on-a-north-facing-balcony`;
const BLOG = `http://www.${domain}/blog/2026/herbs-in-pots`;
let serp: SerpFixture | undefined;

test.beforeAll(async () => {
  serp = await startRankingSerpFixture();
  // Other sites' results, each address once (the providers' results are de-duplicated by URL).
  const filler = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `https://other-${from + i}.example/page`);
  serp.rank('herb pots', [...filler(2), GUIDE, ...filler(3, 10), BLOG, ...filler(3, 20)]);
  serp.rank('seed trays', [...filler(4), `https://${domain}/trays`, ...filler(5)]);
});
test.afterAll(async () => {
  await serp?.close();
});

/** An earlier successful check of a keyword, written as the rank worker writes one (snapshot and ranking). */
async function earlierCheck(term: string, daysAgo: number, urls: string[], own: string): Promise<void> {
  const client = new pg.Client({
    connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test',
  });
  await client.connect();
  try {
    const [keyword] = (
      await client.query<{ id: string }>(
        'SELECT k.id FROM keyword k JOIN project p ON p.id = k.project_id WHERE p.domain = $1 AND k.term = $2',
        [domain, term],
      )
    ).rows;
    const results = urls.map((url, i) => ({ position: i + 1, url, domain: new URL(url).hostname, title: null }));
    const snapshotId = randomUUID();
    const at = new Date(Date.now() - daysAgo * 86_400_000);
    await client.query(
      `INSERT INTO serp_snapshot (id, keyword_id, provider, checked_at, requests, results)
       VALUES ($1, $2, 'searxng', $3, 1, $4)`,
      [snapshotId, keyword.id, at, JSON.stringify(results)],
    );
    await client.query(
      `INSERT INTO ranking (id, keyword_id, status, position, url, provider, snapshot_id, checked_at)
       VALUES ($1, $2, 'OK', $3, $4, 'searxng', $5, $6)`,
      [randomUUID(), keyword.id, urls.indexOf(own) + 1, own, snapshotId, at],
    );
  } finally {
    await client.end();
  }
}

const tab = (page: Page, name: string) =>
  page.getByRole('tablist', { name: 'Keyword views' }).getByRole('tab', { name });

test('cannibalisation: two site URLs for one term, over time, filtered; the URL of every check', async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page);
  await createProject(page, `https://${domain}/`, 'Pot Garden');
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Keywords' }).click();
  await page.getByRole('button', { name: 'Add keywords' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add keywords' });
  await dialog.getByLabel('Keywords, one per line').fill('herb pots\nseed trays');
  await dialog.getByRole('button', { name: 'Add 2 keywords' }).click();
  await expect(page.getByText('Added 2 keywords.')).toBeVisible();
  await earlierCheck('herb pots', 3, ['https://other-0.example/page', GUIDE], GUIDE);

  await page.getByRole('button', { name: 'Check rankings now' }).click();
  await expect(page.getByText('Rank check finished: 2 keywords checked.')).toBeVisible({ timeout: 90_000 });
  const table = page.getByRole('table', { name: /Tracked keywords/ });
  const herbs = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^herb pots/ }) });
  await expect(herbs.getByRole('cell').nth(1)).toHaveText('3');
  // The whole ranking URL, its path included: wrapped, never cut.
  const link = herbs.getByRole('link', { name: GUIDE });
  await expect(link).toHaveText(GUIDE);
  expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the keywords page');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The history: each check with the URL that ranked.
  await herbs.getByRole('button', { name: 'History of “herb pots”' }).click();
  const history = page.getByRole('dialog', { name: 'Position history' });
  const checks = history.getByRole('table', { name: /Checks of “herb pots”, newest first/ });
  await expect(checks.getByRole('row')).toHaveCount(3);
  await expect(checks.getByRole('link', { name: GUIDE })).toHaveCount(2);
  await expectAccessible(page, 'the history dialog with URLs');
  await history.getByRole('button', { name: 'Close' }).click();

  // Cannibalisation: one keyword, both URLs, their positions over time.
  await tab(page, 'Cannibalisation').click();
  await expect(page).toHaveURL(/view=cannibalisation/);
  await expect(page.getByText('1 cannibalised keyword in the last 14 days')).toBeVisible();
  const card = page.getByRole('article', { name: /herb pots/ });
  const urls = card.getByRole('table', { name: 'Site URLs ranking for “herb pots”' });
  await expect(urls.getByRole('rowheader')).toHaveText([GUIDE, BLOG]);
  await expect(urls.getByRole('row', { name: new RegExp(GUIDE) }).getByRole('listitem')).toHaveCount(2);
  await expect(
    urls
      .getByRole('row', { name: new RegExp(BLOG) })
      .getByRole('cell')
      .first(),
  ).toHaveText('7');
  await expect(page.getByRole('article', { name: /seed trays/ })).toHaveCount(0);
  await expectAccessible(page, 'the cannibalisation view');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the cannibalisation view');
  await page.setViewportSize({ width: 1280, height: 900 });
  await reviewShotsAtBothWidths(page, 'keywords-cannibalisation');

  // Filters: text at once, the minimum through the API; both kept in the URL.
  await page.getByLabel('Search keywords').fill('tray');
  await expect(page.getByRole('heading', { name: 'No cannibalised keyword' })).toBeVisible();
  await page.getByLabel('Search keywords').fill('');
  await expect(card).toBeVisible();
  await page.getByRole('button', { name: /Site URLs/ }).click();
  await page.getByRole('option', { name: '3 or more' }).click();
  await expect(page).toHaveURL(/cMin=3/);
  await expect(
    page.getByText('In the last 14 days, no keyword had 3 or more of this site’s URLs ranking.'),
  ).toBeVisible();
  await page.reload();
  await expect(tab(page, 'Cannibalisation')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'No cannibalised keyword' })).toBeVisible();

  // Keyboard: the tabs move with the arrow keys.
  await tab(page, 'Cannibalisation').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(tab(page, 'Tracked keywords')).toHaveAttribute('aria-selected', 'true');
  await expect(table).toBeVisible();
});
