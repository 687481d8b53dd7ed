import {
  createProject,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  reviewShotsAtBothWidths,
  signUp,
  test,
} from './fixtures';
import { startFixtureSite, type FixtureRoutes, type RunningSite } from '../../fixtures/sites/fixture-server';
import { startSerpFixture } from './serp-fixture';

/**
 * Rankings joined to audits, as a person meets them: a site audited by the worker, a keyword ranked #2 by the local
 * SERP fixture (SearXNG protocol) with the ranking URL written differently from the crawled one (a trailing slash and
 * a fragment), then the keywords table's "Ranking page" line leading to the page view ("Ranks for"), and the issues
 * page marking the issue on that page and the affected URL with its keyword.
 */
const page = (title: string, body: string, head = '') => ({
  body:
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head>` +
    `<body>${body}</body></html>`,
});
const described = '<meta name="description" content="A page of the herb garden fixture site, long enough to pass.">';
const SITE: FixtureRoutes = {
  '/': page(
    'Herb garden for small balconies',
    '<h1>Herb garden</h1><p>Herbs on balconies.</p><a href="/guides/herbs">Herb guide</a> <a href="/about">About</a>',
    described,
  ),
  // The ranking page misses its meta description.
  '/guides/herbs': page(
    'A guide to growing herbs on a balcony',
    '<h1>Growing herbs</h1><p>Basil, mint and thyme in pots.</p><a href="/">Home</a>',
  ),
  '/about': page(
    'About the herb garden fixture team',
    '<h1>About</h1><p>Who we are.</p><a href="/">Home</a>',
    described,
  ),
};
const TERM = 'balcony herb guide';

let site: RunningSite;
let serp: { close(): Promise<void> } | undefined;
test.beforeAll(async () => {
  site = await startFixtureSite({ host: '127.0.0.1' });
  site.serve(SITE);
  serp = await startSerpFixture((q) => {
    const results = Array.from({ length: 10 }, (_, i) => `https://other-${i}.example/page`);
    if (q === TERM) results[1] = `${site.origin}/guides/herbs/#pots`;
    return results;
  });
});
test.afterAll(async () => {
  await serp?.close();
  await site?.close();
});

test('a ranking page: its issues from the keywords table, its keywords on the page view and the issues', async ({
  page: p,
}) => {
  // An audit and a rank check, each in a worker.
  test.setTimeout(240_000);
  await signUp(p, 'Rank Joiner');
  await createProject(p, `${site.origin}/`, 'Herb Garden');
  await p.getByRole('button', { name: 'Run audit' }).click();
  await expect(p.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 90_000 });

  await p.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Keywords' }).click();
  await p.getByRole('button', { name: 'Add keywords' }).first().click();
  const dialog = p.getByRole('dialog', { name: 'Add keywords' });
  await dialog.getByLabel('Keywords, one per line').fill(TERM);
  await dialog.getByRole('button', { name: 'Add 1 keyword' }).click();
  await expect(dialog).toBeHidden();
  await p.getByRole('button', { name: 'Check rankings now' }).click();
  await expect(p.getByText('Rank check finished: 1 keyword checked.')).toBeVisible({ timeout: 90_000 });

  // The keywords table: the ranking URL as the results gave it, and under it the crawled page's issues.
  const row = p
    .getByRole('table', { name: /Tracked keywords/ })
    .getByRole('row')
    .filter({ has: p.getByRole('rowheader', { name: TERM }) });
  await expect(row.getByRole('cell').nth(1)).toHaveText('2');
  await expect(row).toContainText('Ranking page:');
  const link = row.getByRole('link', { name: new RegExp(`warning.* on the page ranking for “${TERM}”$`) });
  await expect(link).toBeVisible();
  await expectAccessible(p, 'the keywords table with a ranking page');
  await reviewShotsAtBothWidths(p, 'keywords-ranking-page');

  // Keyboard: the link opens the page view of the URL as crawled (no trailing slash, no fragment).
  await link.focus();
  await p.keyboard.press('Enter');
  await expect(p).toHaveURL(/\/audits\/[^/]+\/page\?url=/);
  await expect(p.getByRole('heading', { level: 2, name: `${site.origin}/guides/herbs` })).toBeVisible();
  const ranks = p.getByRole('definition').filter({ has: p.getByRole('listitem') });
  await expect(ranks.getByRole('listitem')).toHaveText([`#2 ${TERM}`]);
  await expect(p.getByRole('term').filter({ hasText: 'Ranks for' })).toBeVisible();
  await expectAccessible(p, 'the page view of a ranking page');
  await reviewShotsAtBothWidths(p, 'page-view-ranking-page');

  // The issues: the one on the ranking page says so, and its URL table lists the ranking page first.
  await p.getByRole('navigation', { name: 'Audit views' }).getByRole('link', { name: 'Issues' }).click();
  await expect(p.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();
  const issue = p.getByRole('button', { name: /Missing meta description.*1 ranking page/ });
  await expect(issue).toBeVisible();
  await issue.focus();
  await p.keyboard.press('Enter');
  await expect(issue).toHaveAttribute('aria-expanded', 'true');
  await p.getByRole('link', { name: /^Open its \d+ affected URLs?$/ }).click();
  const affected = p.getByRole('table', { name: 'Affected URLs, ranking pages first' });
  const first = affected.getByRole('row').nth(1);
  await expect(first.getByRole('rowheader')).toHaveText(`${site.origin}/guides/herbs`);
  await expect(p.getByText('1 ranking page', { exact: true })).toBeVisible();
  await expectAccessible(p, 'an issue on a ranking page');
  await reviewShotsAtBothWidths(p, 'issues-ranking-page');
  await p.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(p, 'an issue on a ranking page at 375 px');
});
