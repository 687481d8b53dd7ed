import { chooseInput, expect, expectAccessible, signUp, test, reviewShot, SHOTS_DIR } from './fixtures';

const PAGES = [
  { path: '/', h1: 'Find what holds your site back in search, and fix it', title: /open-source site audits/ },
  { path: '/tools', h1: 'Free SEO tools', title: /^Free SEO tools · / },
  { path: '/tools/meta-tags', h1: 'Meta tags analyzer', title: /^Meta tags analyzer · / },
  { path: '/tools/robots', h1: 'robots.txt tester', title: /^robots\.txt tester · / },
  { path: '/tools/headers', h1: 'HTTP headers checker', title: /^HTTP headers checker · / },
  { path: '/tools/sitemap', h1: 'XML sitemap validator', title: /^XML sitemap validator · / },
];

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the public pages show their content, styled, and link to each other', async ({ page }) => {
    for (const { path, h1, title } of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: h1 })).toBeVisible();
      await expect(page).toHaveTitle(title);
    }
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'robots.txt' })).toHaveAttribute('href', '/tools/robots');
    // The stylesheet applies: the header is laid out as a bar, not a list of links.
    const header = await page.locator('header.app-header').boundingBox();
    expect(header?.height).toBeLessThan(100);
    await reviewShot(page, 'landing-no-js-1280');
  });
});

test('a public page is replaced by the app without a flash, and keeps its head after navigating', async ({ page }) => {
  await page.goto('/tools/robots');
  await expect(page.getByRole('heading', { level: 1, name: 'robots.txt tester' })).toBeVisible();
  // The app took over: its links navigate on the client, and the head follows the page.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Free tools' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Free SEO tools' })).toBeVisible();
  await expect(page).toHaveTitle(/^Free SEO tools · /);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/tools$/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Free SEO tools, no account/);
  await expectAccessible(page, 'the tools index after client navigation');
});

test('a signed-in user opening / is taken to the projects', async ({ page }) => {
  await signUp(page, 'Lin Public');
  await page.goto('/');
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
});

test('the meta tags tool previews the search result, cut by pixel width as Google shows it', async ({ page }) => {
  const longTitle =
    'A very long page title that keeps going with more and more words until it no longer fits in one result line';
  const longDescription =
    'This description is written to be far longer than the two lines a search result shows on a desktop screen, ' +
    'so that the preview has to cut it after a whole word and add an ellipsis, exactly as the results page would ' +
    'do with a description of this many characters and words.';
  await page.goto('/tools/meta-tags');
  await chooseInput(page, 'Paste HTML');
  await page.getByLabel('Page URL (optional)').fill('https://www.example.com/blog/long-post');
  await page
    .getByLabel('HTML', { exact: true })
    .fill(
      `<html lang="en"><head><title>${longTitle}</title><meta name="description" content="${longDescription}">` +
        '</head><body><h1>Post</h1></body></html>',
    );
  await page.getByRole('button', { name: 'Analyze' }).click();
  const preview = page.getByRole('group', { name: 'Search result preview' });
  await expect(preview).toBeVisible();
  await expect(preview).toContainText('example.com');
  await expect(preview).toContainText('https://www.example.com › blog › long-post');
  const shownTitle = (await preview.locator('.serp-title').textContent()) ?? '';
  expect(shownTitle).toMatch(/ \.\.\.$/);
  expect(longTitle.startsWith(shownTitle.replace(/ \.\.\.$/, ''))).toBe(true);
  expect(shownTitle.length).toBeLessThan(longTitle.length);
  // The title as shown fits in 600 px of 20 px Arial, measured in the page.
  const width = await preview.locator('.serp-title').evaluate((el) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = '20px Arial, sans-serif';
    return ctx.measureText(el.textContent ?? '').width;
  });
  expect(width).toBeLessThanOrEqual(600);
  const shownDescription = (await preview.locator('.serp-description').textContent()) ?? '';
  expect(shownDescription).toMatch(/ \.\.\.$/);
  expect(longDescription.startsWith(shownDescription.replace(/ \.\.\.$/, ''))).toBe(true);
  const region = page.getByRole('region', { name: 'Search result preview' });
  await expect(region.getByText(/^Title: [\d,]+ px of 600 px, cut in results$/)).toBeVisible();
  await expect(region.getByText(/^Description: [\d,]+ px of 920 px, cut in results$/)).toBeVisible();
  await expectAccessible(page, 'the meta tags tool with a search result preview');
  if (SHOTS_DIR) {
    await region.scrollIntoViewIfNeeded();
    await reviewShot(page, 'serp-preview-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await region.scrollIntoViewIfNeeded();
    await reviewShot(page, 'serp-preview-375');
    const box = await preview.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  }

  // A short title and description are shown whole.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page
    .getByLabel('HTML', { exact: true })
    .fill(
      '<html lang="en"><head><title>Short title</title><meta name="description" content="Short text.">' +
        '</head><body></body></html>',
    );
  await page.getByRole('button', { name: 'Analyze' }).click();
  await expect(preview.locator('.serp-title')).toHaveText('Short title');
  await expect(preview.locator('.serp-description')).toHaveText('Short text.');
  await expect(region.getByText(/^Title: [\d,]+ px of 600 px$/)).toBeVisible();
});
