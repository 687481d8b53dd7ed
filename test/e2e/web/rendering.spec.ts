import { startFixtureSite, type RunningSite } from '../../fixtures/sites/fixture-server';
import { renderedSite } from '../../fixtures/sites/rendered-site';
import {
  createProject,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  reviewShotsAtBothWidths,
  signUp,
  test,
} from './fixtures';

/**
 * Browser rendering mode as a person meets it: switched on in the settings, an audit of a client-rendered site, and a
 * single-page app's page view that shows its raw HTML beside the rendered page (test/fixtures/sites/rendered-site.ts:
 * /app is an empty shell whose script builds its title, h1, text and a link).
 */
let site: RunningSite;
test.beforeAll(async () => {
  site = await startFixtureSite({ host: '127.0.0.1' });
  site.serve(renderedSite(site.origin));
});
test.afterAll(async () => {
  await site?.close();
});

test('browser mode: the page view compares raw HTML with the rendered page, and rendering is judged', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, 'Ren Derer');
  await page.goto('/projects');
  await createProject(page, `${site.origin}/`, 'Garden planner');
  const sections = page.getByRole('navigation', { name: 'Project sections' });
  await sections.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: /Rendering/ }).click();
  await page.getByRole('option', { name: 'Render JavaScript in a browser' }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  await sections.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 150_000 });

  // The link /app/more exists only after its script ran: a browser-mode crawl finds it.
  await page.getByRole('link', { name: 'View issues' }).click();
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible();
  await expect(page.getByRole('link', { name: `${site.origin}/app/more`, exact: true })).toBeVisible();
  await page.getByRole('link', { name: `${site.origin}/app`, exact: true }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Crawled page' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Raw HTML vs rendered' })).toBeVisible();
  const table = page.getByRole('table', { name: /Title, description, canonical, robots, h1/ });
  const row = (field: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: field }) });
  await expect(row('Title').getByRole('cell')).toHaveText([
    'None',
    'Garden planner app: plots, seeds and seasons',
    'Differs',
  ]);
  await expect(row('H1').getByRole('cell')).toHaveText(['No h1', 'Garden planner', 'Differs']);
  await expect(row('Internal links').getByRole('cell').last()).toHaveText('Differs');
  await expect(row('Canonical').getByRole('cell').last()).toHaveText('Same');

  // Judged as rendered: the title that exists only after rendering is named, the empty raw title is not "missing".
  await expect(page.getByRole('heading', { name: /Issues on this URL \(\d+\)/ })).toBeVisible();
  await expect(page.getByText('Title only after rendering').first()).toBeVisible();
  await expect(page.getByText('Missing title', { exact: true })).toHaveCount(0);
  await expectAccessible(page, 'the page view of a rendered page');
  await reviewShotsAtBothWidths(page, 'page-view-rendered');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the rendered page view at 375 px');
});
