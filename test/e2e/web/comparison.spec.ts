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

/** Before the "deploy": three tidy pages. */
const BEFORE: FixtureRoutes = {
  '/': page('Balcony plants for small spaces', `<h1>Home</h1><p>Plants for balconies.</p>${nav}`),
  '/about': page('About the balcony garden team', `<h1>About</h1><p>Who we are.</p>${nav}`),
  '/plants': page('Plants that grow in pots', `<h1>Plants</h1><p>Basil and mint.</p>${nav}`),
};
/** After: /about gets noindex, /plants loses its title, and a new page links from home. */
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

test('comparison: what a deploy changed, from the score change to one URL before and after', async ({ page: p }) => {
  test.setTimeout(240_000);
  await signUp(p, 'Com Parison');
  await createProject(p, `${site.origin}/`, 'Balcony');
  await runAudit(p, 1);
  site.serve(AFTER);
  await runAudit(p, 2);

  // The overview's score change and the audits table both lead to the comparison.
  await expect(p.getByRole('region', { name: 'Audits' }).getByRole('link', { name: 'Changes' })).toHaveCount(1);
  await p.getByRole('link', { name: /since the previous audit: see what changed/ }).click();
  await expect(p.getByRole('heading', { level: 1, name: 'Changes between audits' })).toBeVisible();
  await expect(p.getByRole('table').filter({ hasText: 'Overall' }).first()).toBeVisible();

  // New issues: the missing title is there, with its URL.
  const changes = p.getByRole('navigation', { name: 'Changes' });
  await expect(changes.getByRole('link', { name: /^New issues \(\d+\)$/ })).toHaveAttribute('aria-current', 'page');
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

  // Changed URLs: /about became non-indexable, /offers is new.
  await changes.getByRole('link', { name: /^Changed URLs/ }).click();
  const table = p.getByRole('table', { name: /URLs added, removed/ });
  await expect(table.getByRole('row').filter({ hasText: `${site.origin}/about` })).toContainText(
    'Indexability changed',
  );
  await expect(table.getByRole('row').filter({ hasText: `${site.origin}/offers` })).toContainText('New URL');
  await expectAccessible(p, 'the changed URLs');

  // The comparison as CSV.
  const download = p.waitForEvent('download');
  await p.getByRole('button', { name: 'Issues CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-comparison-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-issues\.csv$/);
  await expect(p.getByRole('status').filter({ hasText: /Downloaded .* \(\d+ rows?\)\./ })).toBeVisible();
});
