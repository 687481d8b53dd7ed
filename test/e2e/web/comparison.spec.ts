import type { Page } from '@playwright/test';
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
import { startFixtureSite, type FixtureRoutes, type RunningSite } from '../../fixtures/sites/fixture-server';

const page = (title: string, body: string, head = '') => ({
  body:
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
    `<meta name="description" content="A page of the comparison fixture site, long enough to pass the checks.">` +
    `${head}</head><body>${body}</body></html>`,
});
const nav = '<a href="/">Home</a> <a href="/about">About</a> <a href="/plants">Plants</a>';

/** Before the "deploy": four tidy pages. */
const BEFORE: FixtureRoutes = {
  '/': page(
    'Balcony plants for small spaces',
    `<h1>Home</h1><p>Plants for balconies.</p>${nav} <a href="/seeds">Seeds</a>`,
  ),
  '/about': page('About the balcony garden team', `<h1>About</h1><p>Who we are.</p>${nav}`),
  '/plants': page('Plants that grow in pots', `<h1>Plants</h1><p>Basil and mint.</p>${nav}`),
  '/seeds': page('Seeds for balcony boxes', `<h1>Seeds</h1><p>Sow in spring.</p>${nav}`),
};
/** After: /about gets noindex, /plants loses its title, /seeds is deleted, and a new page links from home. */
const AFTER: FixtureRoutes = {
  '/': page(
    'Balcony plants for small spaces',
    `<h1>Home</h1><p>Plants for balconies.</p>${nav} <a href="/offers">Offers</a>`,
  ),
  '/about': page(
    'About the balcony garden team',
    `<h1>About</h1><p>Who we are.</p>${nav}`,
    '<meta name="robots" content="noindex">',
  ),
  '/plants': page('', `<h1>Plants</h1><p>Basil and mint.</p>${nav}`),
  '/offers': page('Offers of the week', `<h1>Offers</h1><p>Cheap pots.</p>${nav}`),
};

let site: RunningSite;
test.beforeAll(async () => {
  site = await startFixtureSite({ host: '127.0.0.1' });
  site.serve(BEFORE);
});
test.afterAll(async () => {
  await site?.close();
});

async function runAudit(p: Page, completed: number): Promise<void> {
  await p.getByRole('button', { name: 'Run audit' }).click();
  const audits = p.getByRole('region', { name: 'Audits' });
  await expect(audits.getByRole('row').filter({ hasText: 'Completed' })).toHaveCount(completed, { timeout: 90_000 });
}

/** A tab's count, from its name "Label (n)". */
const countOf = async (tab: ReturnType<Page['getByRole']>) =>
  Number(/\((\d[\d,]*)\)$/.exec((await tab.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? NaN);

test('comparison: what a deploy changed, from the score change to one URL before and after', async ({ page: p }) => {
  test.setTimeout(240_000);
  await signUp(p, 'Com Parison');
  await createProject(p, `${site.origin}/`, 'Balcony');
  const overview = p.url();
  await runAudit(p, 1);
  site.serve(AFTER);
  // Between the audits, a check is switched off on the project's Checks page.
  await p.goto(`${overview.replace(/\/$/, '')}/checks`);
  const og = p.getByRole('switch', { name: 'Missing Open Graph tags: enabled' });
  await og.press('Space');
  await expect(og).not.toBeChecked();
  await p.goto(overview);
  await runAudit(p, 2);

  // The overview does not read the settings change as progress: no arrow, "settings changed", and the history and
  // the audits table say which setting.
  await expect(p.getByText('settings changed')).toBeVisible();
  await expect(
    p.getByText(/Other check settings: Missing Open Graph tags \(META_OPEN_GRAPH_MISSING\) disabled/),
  ).toBeVisible();
  await expect(p.getByRole('region', { name: 'Audits' }).getByRole('link', { name: 'Changes' })).toHaveCount(1);
  await p.getByRole('link', { name: /previous audit: see what changed/ }).click();
  await expect(p.getByRole('heading', { level: 1, name: 'Changes between audits' })).toBeVisible();
  await expect(p.getByRole('table').filter({ hasText: 'Overall' }).first()).toBeVisible();
  await expect(p.getByText(/Missing Open Graph tags \(META_OPEN_GRAPH_MISSING\) disabled\./)).toBeVisible();

  // One tab selected at a time; each count is its rows.
  const changes = p.getByRole('tablist', { name: 'Changes' });
  const newTab = changes.getByRole('tab', { name: /^New issues \(\d+\)$/ });
  await expect(newTab).toHaveAttribute('aria-selected', 'true');
  await expect(changes.getByRole('tab', { selected: true })).toHaveCount(1);

  // New issues: the missing title is there, with its URL.
  await expect(p.getByRole('tabpanel', { name: /^New issues/ })).toBeVisible();
  const newIssues = p.getByRole('list', { name: 'New issues' });
  const missingTitle = newIssues.getByRole('listitem').filter({ hasText: 'META_TITLE_MISSING' });
  await expect(missingTitle).toBeVisible();
  await missingTitle.getByRole('button', { name: 'Show URLs' }).click();
  await expect(missingTitle.getByRole('link', { name: `${site.origin}/plants` })).toBeVisible();
  await expectAccessible(p, 'the comparison, new issues');
  await reviewShotsAtBothWidths(p, 'comparison-new');
  await expectNoSidewaysScroll(p, 'the comparison');
  await screenshotFor(p, 'comparison');

  // One URL before and after: the title issue is new there.
  await missingTitle.getByRole('button', { name: `Before / after ${site.origin}/plants` }).click();
  const panel = p.getByRole('region', { name: `${site.origin}/plants` });
  await expect(panel.getByRole('row').filter({ hasText: 'META_TITLE_MISSING' })).toContainText('New');
  await expectAccessible(p, 'a URL before and after');
  await panel.getByRole('button', { name: 'Close' }).click();

  // The switched-off check: not checked, never fixed.
  const notChecked = changes.getByRole('tab', { name: /^No longer checked/ });
  await notChecked.click();
  await expect(notChecked).toHaveAttribute('aria-selected', 'true');
  await expect(changes.getByRole('tab', { selected: true })).toHaveCount(1);
  await expect(
    p
      .getByRole('list', { name: 'No longer checked' })
      .getByRole('listitem')
      .filter({ hasText: 'META_OPEN_GRAPH_MISSING' }),
  ).toContainText('4 URLs');
  await changes.getByRole('tab', { name: /^Fixed/ }).click();
  await expect(p.getByRole('list', { name: 'Fixed' }).getByText('META_OPEN_GRAPH_MISSING')).toHaveCount(0);

  // The deleted page's issues are gone with it; the arrow keys move between the tabs.
  await changes.getByRole('tab', { selected: true }).press('ArrowRight');
  const gone = changes.getByRole('tab', { name: /^Gone with their page/ });
  await expect(gone).toHaveAttribute('aria-selected', 'true');
  await expect(gone).toBeFocused();
  const goneList = p.getByRole('list', { name: 'Gone with their page' });
  await expect(goneList).toBeVisible();
  await expectAccessible(p, 'the comparison, gone with their page');
  await reviewShotsAtBothWidths(p, 'comparison-gone');

  // A site fact is the site's: over http both times, "No HTTPS" persists once for the whole site, not per URL.
  await changes.getByRole('tab', { name: /^Persisting/ }).click();
  const noHttps = p
    .getByRole('list', { name: 'Persisting' })
    .getByRole('listitem')
    .filter({ hasText: 'TECH_HTTP_PAGE' });
  await expect(noHttps).toContainText('Site-wide');
  await expect(noHttps).not.toContainText(/\d URLs?\b/);
  await noHttps.getByRole('button', { name: 'Show where' }).click();
  await expect(noHttps.getByText(/compared once for the whole site/)).toBeVisible();
  await expect(noHttps.getByRole('link')).toHaveCount(1);
  // Its page before and after says the change is the site's.
  await noHttps.getByRole('button', { name: `Before / after ${site.origin}/` }).click();
  const home = p.getByRole('region', { name: `${site.origin}/` });
  await expect(home.getByRole('row').filter({ hasText: 'TECH_HTTP_PAGE' })).toContainText(
    /Persisting.*Site-wide: what became of it on the site/,
  );
  await expectAccessible(p, 'the comparison, a persisting site fact');
  await reviewShotsAtBothWidths(p, 'comparison-site-fact');
  await home.getByRole('button', { name: 'Close' }).click();

  // Changed URLs: /about became non-indexable, /seeds is no longer crawled, /offers is new; one row each, as counted.
  const pagesTab = changes.getByRole('tab', { name: /^Changed URLs/ });
  await pagesTab.click();
  const table = p.getByRole('table', { name: /URLs added, removed/ });
  await expect(table.getByRole('row').filter({ hasText: `${site.origin}/about` })).toContainText(
    'Indexability changed',
  );
  await expect(table.getByRole('row').filter({ hasText: `${site.origin}/offers` })).toContainText('New URL');
  await expect(table.getByRole('row').filter({ hasText: `${site.origin}/seeds` })).toContainText('No longer crawled');
  await expect(table.locator('tbody tr')).toHaveCount(await countOf(pagesTab));
  await expectAccessible(p, 'the changed URLs');

  // The comparison as CSV.
  const download = p.waitForEvent('download');
  await p.getByRole('button', { name: 'Issues CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-comparison-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-issues\.csv$/);
  await expect(p.getByRole('status').filter({ hasText: /Downloaded .* \(\d+ rows?\)\./ })).toBeVisible();
});
