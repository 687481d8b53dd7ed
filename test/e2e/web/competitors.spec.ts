import AxeBuilder from '@axe-core/playwright';
import {
  expectAccessible,
  screenshotFor,
  signUp,
  test,
  expect,
  uniq,
  createProject,
  reviewShot,
  reviewShotsAtBothWidths,
  expectNoSidewaysScroll,
} from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';
import { startRankingSerpFixture, type SerpFixture } from './serp-fixture';

let site: FixtureSite;
let serp: SerpFixture;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
  serp = await startRankingSerpFixture();
});
test.afterAll(async () => {
  await site?.close();
  await serp?.close();
});

test('competitors: add one (with errors explained), see it in the matrix beside the project, remove it', async ({
  page,
  baseURL,
}) => {
  // Sign-up, a rank check through the worker and six axe passes: more than the default two minutes on a busy machine.
  test.setTimeout(300_000);
  await signUp(page);
  await createProject(page, `${site.origin}/`, 'Rival Garden');
  const projectId = new URL(page.url()).pathname.split('/').pop()!;
  const ownDomain = new URL(site.origin).hostname;

  // Without keywords, the page says where to add them.
  const sections = page.getByRole('navigation', { name: 'Project sections' });
  await sections.getByRole('link', { name: 'Competitors' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Competitors' })).toBeVisible();
  await expect(page).toHaveTitle(/^Competitors · Rival Garden/);
  await expect(sections.getByRole('link', { name: 'Competitors' })).toHaveAttribute('aria-current', 'page');
  await expect(
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Rival Garden' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No keywords tracked yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add keywords in the Keywords section' })).toHaveAttribute(
    'href',
    `/projects/${projectId}/keywords`,
  );
  await expectAccessible(page, 'the competitors page without keywords');

  // Two tracked keywords (added through the API the Keywords section uses).
  const added = await page.request.post('/graphql', {
    headers: { origin: baseURL!, 'content-type': 'application/json' },
    data: {
      query: 'mutation($p: ID!, $i: AddKeywordsInput!) { addKeywords(projectId: $p, input: $i) { id } }',
      variables: { p: projectId, i: { keywords: ['balcony plants', 'small pots'] } },
    },
  });
  expect((await added.json()).errors).toBeUndefined();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No keywords tracked yet' })).toHaveCount(0);
  await expect(page.getByText('2 keywords tracked, none checked yet.')).toBeVisible();

  // Bad input is explained at the field.
  const field = page.getByLabel('Competitor domain');
  await field.fill('not a domain');
  await page.getByRole('button', { name: 'Add competitor' }).click();
  await expect(page.getByText('Competitor domain must be a host name or an http(s) URL')).toBeVisible();
  await expectAccessible(page, 'the add competitor form with an error');

  // A URL is stored as its host, without www.
  const rival = `rival-${uniq()}.example.com`;
  await field.fill(`https://www.${rival}/pricing`);
  await page.getByRole('button', { name: 'Add competitor' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${rival} added` })).toBeVisible();
  const summary = page.getByRole('table', { name: /Visibility, keywords in the top 10/ });
  await expect(summary.getByRole('rowheader', { name: rival })).toBeVisible();
  await expect(summary.getByRole('rowheader', { name: /your project/ })).toContainText(ownDomain);

  // The matrix: a row per keyword, a column for the project and one per competitor; dashes until checked.
  const matrix = page.getByRole('table', { name: /Position of each domain for each keyword/ });
  await expect(matrix.getByRole('columnheader')).toHaveText(['Keyword', `${ownDomain} (your project)`, rival]);
  await expect(matrix.getByRole('rowheader', { name: /balcony plants/ })).toBeVisible();
  await expect(matrix.getByRole('row')).toHaveCount(3);
  await expect(matrix.getByRole('cell').first()).toHaveText('—not checked');

  // Its homepage profile (the analysis runs in a worker: queued, or its result, or why it failed).
  const profiles = page.getByRole('region', { name: 'Homepage profiles' });
  await expect(profiles.getByRole('heading', { name: new RegExp(rival) })).toBeVisible();

  // The same competitor twice is refused with the reason.
  await field.fill(rival);
  await page.getByRole('button', { name: 'Add competitor' }).click();
  await expect(page.getByText(`${rival} is already tracked as a competitor.`)).toBeVisible();
  await expectAccessible(page, 'the competitors page with a competitor');
  await reviewShotsAtBothWidths(page, 'competitors');

  // A rank check (the local search engine answers): positions, visibility and the trend, by one rule for all.
  serp.rank('balcony plants', [`https://www.${rival}/plants`, 'https://other.example.org/', `${site.origin}/about`]);
  serp.rank('small pots', [
    `${site.origin}/`,
    'https://a.example.org/',
    'https://b.example.org/',
    'https://c.example.org/',
    `https://blog.${rival}/pots`,
  ]);
  const check = await page.request.post('/graphql', {
    headers: { origin: baseURL!, 'content-type': 'application/json' },
    data: { query: 'mutation($p: ID!) { checkRankings(projectId: $p) { keywords } }', variables: { p: projectId } },
  });
  expect((await check.json()).data.checkRankings.keywords).toBe(2);
  const balcony = matrix.getByRole('row', { name: /balcony plants/ });
  await expect(async () => {
    await page.reload();
    await expect(balcony.getByRole('cell')).toHaveText(['3', '1'], { timeout: 2000 });
    await expect(matrix.getByRole('row', { name: /small pots/ }).getByRole('cell')).toHaveText(['1', '5'], {
      timeout: 2000,
    });
  }).toPass({ timeout: 90_000 });
  // CTR curve: #1 0.28, #3 0.11, #5 0.07, as a share of ranking first for both keywords (0.56).
  await expect(summary.getByRole('row', { name: /your project/ }).getByRole('cell')).toHaveText([
    '69.6%',
    '2',
    '2',
    'see Overview',
    '',
  ]);
  await expect(summary.getByRole('row', { name: rival }).getByRole('cell')).toHaveText([
    '62.5%',
    '2',
    '3',
    /.*/,
    'Remove',
  ]);
  const trend = page.getByRole('figure', { name: /Visibility on/ });
  await expect(trend.locator('canvas')).toBeVisible();
  const trendTable = trend.getByRole('table', { name: 'Visibility per day' });
  await expect(trendTable.getByRole('columnheader')).toHaveText(['Day', ownDomain, rival]);
  await expect(trendTable.getByRole('cell')).toHaveText(['69.6%', '62.5%']);
  await expectAccessible(page, 'the competitors page with positions');
  await screenshotFor(page, 'competitors');
  await reviewShot(page, 'competitors-checked-1280');
  // On a phone the tables scroll in their own focusable regions.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('region', { name: 'Position matrix' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'the competitors page with positions');
  await reviewShot(page, 'competitors-checked-375');
  // The page's own content (the shared header at 375 px is the responsive work's, issue 25 point 10).
  const narrow = await new AxeBuilder({ page })
    .include('section.page')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(narrow.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
    [],
  );
  await page.setViewportSize({ width: 1280, height: 900 });

  // Removal asks first; cancelling keeps it, confirming removes it.
  await summary.getByRole('button', { name: `Remove ${rival}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove competitor?' });
  await expect(confirm).toContainText(rival);
  await expectAccessible(page, 'the remove competitor dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(summary.getByRole('rowheader', { name: rival })).toBeVisible();
  await summary.getByRole('button', { name: `Remove ${rival}` }).click();
  await page.getByRole('alertdialog', { name: 'Remove competitor?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(summary.getByRole('rowheader', { name: rival })).toHaveCount(0);
  await expect(matrix.getByRole('columnheader')).toHaveText(['Keyword', `${ownDomain} (your project)`]);
});
