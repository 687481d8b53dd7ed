import {
  expectAccessible,
  screenshotFor,
  signUp,
  test,
  expect,
  createProject,
  reviewShot,
  expectNoSidewaysScroll,
} from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('the technical page explains what is not measured yet, then shows site facts and vitals after an audit', async ({
  page,
}) => {
  // Sign-up and a whole audit through the worker: more than the default two minutes on a busy machine.
  test.setTimeout(300_000);
  await signUp(page);
  await createProject(page, `${site.origin}/`, 'Technical Garden');

  // Before any audit: the empty state says what measures vitals and what lab metrics need.
  const sections = page.getByRole('navigation', { name: 'Project sections' });
  await sections.getByRole('link', { name: 'Technical' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Technical' })).toBeVisible();
  await expect(page).toHaveTitle(/^Technical · Technical Garden/);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'Technical Garden' })).toBeVisible();
  await expect(sections.getByRole('link', { name: 'Technical' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'No Core Web Vitals measured yet' })).toBeVisible();
  await expect(page.getByText(/An audit measures them/)).toBeVisible();
  await expect(page.getByText(/CHROMIUM_PATH/)).toBeVisible();
  await expect(page.getByText(/No completed audit yet: run an audit/)).toBeVisible();
  await expectAccessible(page, 'the technical page before an audit');

  // An audit of the local fixture site.
  await sections.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 90_000 });

  await sections.getByRole('link', { name: 'Technical' }).click();
  // Site facts as cards, each with its reason and, when failed, the severity its issue has in the issues list: the
  // fixture site is plain http ("No HTTPS", a WARNING) with robots.txt and a sitemap.
  const facts = page.getByRole('region', { name: 'Site facts' });
  const https = facts.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^HTTPS/ }) });
  await expect(https.getByRole('heading')).toHaveText(/HTTPS\s*Warning/);
  await expect(https).toContainText('served over plain HTTP');
  const robots = facts.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^robots\.txt/ }) });
  await expect(robots.getByRole('heading')).toHaveText(/robots\.txt\s*Pass/);
  await expect(robots).toContainText('/robots.txt answers 200.');
  await expect(facts.getByRole('heading', { name: /^Sitemap/ })).toHaveText(/Sitemap\s*Pass/);
  for (const name of ['HSTS', 'HTTP version', 'Compression'])
    await expect(
      facts.getByRole('heading', { name: new RegExp(`^${name}\\s*(Pass|Critical|Warning|Notice|Info|Unknown)`) }),
    ).toBeVisible();

  // Core Web Vitals: a page picker, the source labelled, and a chart per measured metric with its bands.
  const vitals = page.getByRole('region', { name: 'Core Web Vitals' });
  await expect(vitals.getByRole('button', { name: /Page/ })).toContainText(site.origin);
  await expect(vitals.getByText(/Source: (Lab \(Chromium\)|HTTP only)/)).toBeVisible();
  const ttfb = vitals.getByRole('figure', { name: /Time to First Byte \(TTFB\) over time/ });
  await expect(ttfb).toBeVisible();
  await expect(ttfb).toHaveAccessibleName(/Bands: good up to 800 ms, poor above 1\.8 s/);
  await expect(ttfb.locator('canvas')).toBeVisible();
  await expect(vitals.getByText(/Latest: \d.*(Good|Needs improvement|Poor)/).first()).toBeVisible();
  // The text alternative: every measurement with its band and source.
  const table = ttfb.getByRole('table', { name: 'TTFB measurements' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('cell').nth(1)).toHaveText(/Good|Needs improvement|Poor/);
  // The bands are painted behind the line: the plot has the good band's tint.
  const tinted = await ttfb.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const colors = new Set<string>();
    for (let i = 0; i < data.length; i += 4 * 97)
      if (data[i + 3] > 0) colors.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return colors.size;
  });
  expect(tinted).toBeGreaterThan(3);
  await expectAccessible(page, 'the technical page after an audit');
  await screenshotFor(page, 'technical');

  // The charts' screen-reader tables are clipped, not laid out beside the page.
  await expectNoSidewaysScroll(page, 'the technical page');
  await reviewShot(page, 'technical-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(ttfb).toBeVisible();
  await expectNoSidewaysScroll(page, 'the technical page');
  await reviewShot(page, 'technical-375');
});
