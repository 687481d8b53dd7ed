import {
  chooseInput,
  expectAccessible,
  expectConsoleError,
  screenshotFor,
  reviewShotsAtBothWidths,
  setPlanOf,
  signUp,
  test,
  expect,
} from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test.describe.configure({ mode: 'serial' });

test('a new user signs up, audits a site, reads its issues, and makes, uses and revokes an API key', async ({
  page,
  request,
}) => {
  let alerted = false;
  page.on('dialog', (d) => {
    alerted = true;
    void d.dismiss();
  });

  // The landing page says what the platform does and how to start.
  await page.goto('/');
  await expect(page).toHaveTitle('SEO Audit Platform: open-source site audits and rankings');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find what holds your site back');
  await expect(page.getByRole('link', { name: 'robots.txt' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'REST API reference' }).first()).toHaveAttribute('href', '/docs');
  await expectAccessible(page, 'the landing page');

  await page.getByRole('link', { name: 'Sign up' }).first().click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expectAccessible(page, 'the sign-up page');
  await signUp(page);
  await expect(page).toHaveTitle('Projects · SEO Audit Platform');
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible();
  await expectAccessible(page, 'the empty dashboard');

  // A URL the API refuses is explained at the field; then the project is created.
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Website URL').fill('ftp://files.example.com/');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog.getByText('Website URL must use http or https')).toBeVisible();
  await expectAccessible(page, 'the new project dialog with an error');
  await dialog.getByLabel('Website URL').fill(`${site.origin}/`);
  await dialog.getByLabel('Name').fill('Fixture Garden');
  await dialog.getByRole('button', { name: 'Create project' }).click();

  // The overview, ready for a first audit; the audit runs in a worker and reports its progress live.
  await expect(page.getByRole('heading', { level: 1, name: 'Fixture Garden' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No completed audit yet' })).toBeVisible();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(
    page
      .getByRole('heading', { name: /Audit (queued|running)/ })
      .or(page.getByRole('heading', { name: 'Latest scores' })),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('figure', { name: 'Overall' })).toContainText(/\d+/);
  await expect(page.getByRole('heading', { name: 'Score history' })).toBeVisible();
  // Why this score: health and what costs points (by what it takes off the overall score), each leading to itself in
  // the issues list.
  const why = page.getByRole('region', { name: 'Why this score' });
  await expect(why).toContainText(/Half the overall score is health: \d+(\.\d)?% of the HTML pages/);
  const costs = why.getByRole('table', { name: /^What costs points: what takes most off the overall score first/ });
  await expect(costs.getByRole('rowheader').first()).toBeVisible();
  await expect(costs.getByRole('cell', { name: /^−\d/ }).first()).toBeVisible();
  await expectAccessible(page, 'the project overview');
  await reviewShotsAtBothWidths(page, 'overview-why');
  const costliest = (await costs.getByRole('rowheader').first().getByRole('link').textContent())!;
  await costs.getByRole('rowheader').first().getByRole('link').click();
  await expect(page.getByLabel('Search issues')).toHaveValue(costliest);
  await expect(
    page.getByRole('button', { name: new RegExp(costliest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first(),
  ).toBeVisible();
  await page.goBack();

  // Issues: grouped, filterable, each with its guidance and its URLs.
  await page.getByRole('link', { name: 'View issues' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();
  const description = page.getByRole('button', { name: /Meta description/i }).first();
  await expect(description).toBeVisible();
  await expectAccessible(page, 'the audit issues page');
  await description.click();
  await expect(description).toHaveAttribute('aria-expanded', 'true');
  // The catalog's guidance, and the checks that passed.
  await expect(page.getByRole('term').filter({ hasText: 'Why it matters' })).toBeVisible();
  await expect(page.getByRole('definition').first()).toHaveText(/\w{3,}.*\./);
  await expect(page.getByRole('term').filter({ hasText: 'How to fix' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /\d+ of \d+ checks passed/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Open its \d+ affected URLs?$/ })).toBeVisible();
  await expectAccessible(page, 'an expanded issue');
  await screenshotFor(page, 'audit-issues');
  // One list, the costliest first; grouping by category is a choice, kept in the URL.
  const list = page.getByRole('list', { name: 'Issues, most costly first' });
  await expect(list).toBeVisible();
  // The box a person clicks is the checkbox's label (react-aria keeps the input itself visually hidden).
  const grouping = page.getByRole('checkbox', { name: 'Group by category' });
  await page.locator('label', { has: grouping }).click();
  await expect(grouping).toBeChecked();
  await expect(page.getByRole('list', { name: 'Issues by category' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^Meta/ })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('group')).toBe('category');
  await page.locator('label', { has: grouping }).click();
  await expect(list).toBeVisible();
  await page.getByLabel('Search issues').fill('zzzz-no-such-issue');
  await expect(page.getByRole('status').filter({ hasText: /0 issues shown/ })).toBeVisible();
  await page.getByLabel('Search issues').fill('');

  // An issue's URLs are a table, its evidence in columns (never JSON): the broken link's target, status and anchor.
  await description.click();
  await expect(description).toHaveAttribute('aria-expanded', 'false');
  const broken = page.getByRole('button', { name: /Broken internal link/ }).first();
  // A fix is one line with its reach: the one 404 target, and the pages that link to it.
  await expect(broken).toContainText(/1 target, linked from \d+ pages?/);
  await broken.click();
  await expect(
    page
      .getByRole('listitem')
      .filter({ hasText: `${site.origin}/gone` })
      .first(),
  ).toBeVisible();
  await page.getByRole('link', { name: /^Open its \d+ affected URLs?$/ }).click();
  const affected = page.getByRole('table', { name: /^Affected URLs, ranking pages first/ });
  const row = affected.getByRole('row').filter({ hasText: `${site.origin}/gone` });
  await expect(row.getByRole('cell', { name: '404' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Old offer' })).toBeVisible();
  await expect(affected.getByRole('columnheader', { name: 'Links: url' })).toBeVisible();
  expect((await affected.allInnerTexts()).join('\n')).not.toMatch(/\{"|\[\{/);
  await expectAccessible(page, "an issue's URL table with its evidence");
  // The linking page's own view: its outlinks (the 404 among them) and a suggested fix for its issues.
  await row.getByRole('link', { name: `${site.origin}/`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: `${site.origin}/` })).toBeVisible();
  const outlinks = page.getByRole('table', { name: 'Outlinks: links on this page' });
  await expect(outlinks.getByRole('row').filter({ hasText: 'Old offer' })).toContainText('404');
  await expect(page.getByRole('heading', { name: /Issues on this URL \(\d+\)/ })).toBeVisible();
  await page
    .getByRole('button', { name: /Suggest a fix/ })
    .first()
    .click();
  await expect(page.getByText(/Written by (the rules engine|a language model)/)).toBeVisible();
  await expectAccessible(page, 'a page view with a suggested fix');
  // The 404's view: its inlinks say which page links to it, with the anchor text.
  await outlinks
    .getByRole('link', { name: `${site.origin}/gone` })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crawled page' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: `${site.origin}/gone` })).toBeVisible();
  const inlinks = page.getByRole('table', { name: 'Inlinks: pages that link here' });
  const linking = inlinks.getByRole('row').filter({ hasText: 'Old offer' });
  await expect(linking.getByRole('link', { name: `${site.origin}/`, exact: true })).toBeVisible();
  await expectAccessible(page, 'the page view of a 404');
  await screenshotFor(page, 'page-view');
  // Where the link sits on the linking page: the home page's text (no landmark around it) is its content.
  await expect(inlinks.getByRole('columnheader', { name: 'Position' })).toBeVisible();
  await expect(linking.getByRole('cell', { name: 'Content', exact: true })).toBeVisible();
  await page.getByRole('button', { name: /Inlinks from/ }).click();
  await page.getByRole('option', { name: 'Footer' }).click();
  await expect(inlinks.getByText('No inlinks from the footer.')).toBeVisible();
  await page.getByRole('button', { name: /Inlinks from/ }).click();
  await page.getByRole('option', { name: 'Content' }).click();
  await expect(linking.getByRole('link', { name: `${site.origin}/`, exact: true })).toBeVisible();
  // The filter is in the page's URL: a reload (or a bookmark) keeps it.
  await expect(page).toHaveURL(/[?&]inpos=CONTENT(&|$)/);
  await page.reload();
  await expect(page.getByRole('button', { name: /Inlinks from/ })).toContainText('Content');
  await expect(linking.getByRole('link', { name: `${site.origin}/`, exact: true })).toBeVisible();
  await page.getByRole('button', { name: /Inlinks from/ }).click();
  await page.getByRole('option', { name: 'Footer' }).click();
  await expect(page).toHaveURL(/[?&]inpos=FOOTER(&|$)/);
  await page.reload();
  await expect(page.getByRole('button', { name: /Inlinks from/ })).toContainText('Footer');
  await expect(inlinks.getByText('No inlinks from the footer.')).toBeVisible();
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();

  // Pages: the crawled pages; a <title> that looks like a script is shown as text and never runs.
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crawled pages' })).toBeVisible();
  await expect(
    page.getByRole('cell', { name: /<script>window.__xss = 1; alert\("xss"\)<\/script> Strange page/ }),
  ).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(alerted).toBe(false);
  await page.getByRole('button', { name: /^Status/ }).click();
  await expect(page.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByText('4xx', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'URLs 1–1 of 1' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: `${site.origin}/gone` })).toBeVisible();
  await expect(page).toHaveURL(/status=.*CLIENT_ERROR/);
  await page.getByText('4xx', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /URLs 1–\d+ of \d+/ })).toBeVisible();
  // Only the HTML pages: the 404 is a link target, not a page.
  await page.getByText('HTML pages', { exact: true }).click();
  await expect(page.getByRole('rowheader', { name: `${site.origin}/gone` })).toHaveCount(0);
  await page.getByText('HTML pages', { exact: true }).click();
  await expectAccessible(page, 'the pages explorer');

  // Settings → API keys: the full key is shown once, works on /api/v1, is gone after a reload, and can be revoked.
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', exact: true })).toBeVisible();
  await expectAccessible(page, 'the API keys page');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByLabel('Name').fill('CI pipeline');
  await create.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(shown.getByText('It will not be shown again')).toBeVisible();
  const key = await shown.getByLabel('API key “CI pipeline”').inputValue();
  expect(key.length).toBeGreaterThan(20);
  await expectAccessible(page, 'the new key dialog');

  const listed = await request.get('/api/v1/projects', { headers: { authorization: `Bearer ${key}` } });
  expect(listed.status()).toBe(200);
  expect((await listed.json()).projects.map((p: { name: string }) => p.name)).toEqual(['Fixture Garden']);

  await shown.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await expect(page.getByRole('rowheader', { name: 'CI pipeline' })).toBeVisible();
  expect(await page.content()).not.toContain(key);
  expect(
    await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
  ).not.toContain(key.slice(0, 12));

  await page.getByRole('button', { name: 'Revoke CI pipeline' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke “CI pipeline”?' });
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText(/Revoked/)).toBeVisible();
  const refused = await request.get('/api/v1/projects', { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);

  // The dashboard lists the project with its score, for the README's picture.
  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Fixture Garden' })).toBeVisible();
  await expectAccessible(page, 'the dashboard with a project');
  await screenshotFor(page, 'dashboard');

  // Sign out from the user menu.
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find what holds your site back');
});

test('the robots.txt tool works signed out and tells allowed from blocked with the rule', async ({ page }) => {
  await page.goto('/tools/robots');
  await expect(page).toHaveTitle('robots.txt tester · SEO Audit Platform');
  await chooseInput(page, 'Paste the file');
  await page
    .getByLabel('robots.txt', { exact: true })
    .fill('User-agent: *\nDisallow: /private/\nAllow: /private/press/\n');
  await page.getByLabel('URLs to test').fill('/private/report.pdf\n/private/press/kit.zip\n/blog/');
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('Valid robots.txt')).toBeVisible();
  await expect(page.getByRole('row', { name: /\/private\/report\.pdf/ })).toContainText(
    'Blocked by Disallow: /private/ (line 2)',
  );
  await expect(page.getByRole('row', { name: /\/private\/press\/kit\.zip/ })).toContainText(
    'Allowed by Allow: /private/press/ (line 3)',
  );
  await expect(page.getByRole('row', { name: /\/blog\// })).toContainText('Allowed');
  await expectAccessible(page, 'the robots.txt tool with a report');
});

test('the meta tags tool reads pasted HTML into sections, as text', async ({ page }) => {
  await page.goto('/tools/meta-tags');
  await chooseInput(page, 'Paste HTML');
  await page
    .getByLabel('HTML', { exact: true })
    .fill(
      '<html lang="en"><head><title>Hello &lt;b&gt;world&lt;/b&gt;</title><meta property="og:title" ' +
        'content="Hi"></head><body></body></html>',
    );
  await page.getByRole('button', { name: 'Analyze' }).click();
  await expect(page.getByRole('region', { name: 'Meta tags', exact: true })).toContainText('Hello <b>world</b>');
  await expect(page.getByRole('region', { name: 'Open Graph', exact: true })).toContainText('og:title');
  await expectAccessible(page, 'the meta tags tool with a report');
});

test('sign-in errors are shown at the field; unknown pages get the 404 page', async ({ page }) => {
  const { email } = await signUp(page, 'Grace Keys');
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  // Signed out once the landing page shows: navigating earlier could read the session before it ended.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find what holds your site back');

  await page.goto('/sign-up');
  await page.getByLabel('Name').fill('Someone Else');
  await page.getByLabel('E-mail').fill(`short-${Date.now()}@example.test`);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/lengthen this text to 8 characters or more/i)).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('another-long-password');
  expectConsoleError(/status of 422|status of 400/);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByText('An account with this e-mail already exists. Sign in instead.')).toBeVisible();

  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  expectConsoleError(/status of 401/);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong e-mail or password.')).toBeVisible();
  await expectAccessible(page, 'the sign-in page with an error');

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · SEO Audit Platform');
  await expectAccessible(page, 'the 404 page');
});

test('on the Free plan, Settings says what API keys can do instead of failing later', async ({ page }) => {
  const { email } = await signUp(page, 'Free Planner');
  await setPlanOf(email, 'FREE');
  await page.goto('/settings/api-keys');
  await expect(page.getByText('API keys are not accepted on this plan')).toBeVisible();
  await expect(
    page
      .getByRole('button', { name: 'Plan and usage' })
      .or(page.getByRole('button', { name: /Free/ }))
      .first(),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Owner' })).toBeVisible();
  await expectAccessible(page, 'the members page');
});
