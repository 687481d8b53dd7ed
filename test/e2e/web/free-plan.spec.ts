import type { Page } from '@playwright/test';
import { createProject, expectAccessible, setPlanOf, signUp, test, expect } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

/**
 * The web app is not a script (issue 25, point 1): on the Free plan (10 requests a minute on Surface B) a person
 * browses and watches an audit without ever meeting a rate limit, while a script using the same cookie on /api/*
 * still gets 429 at its 11th call in a minute.
 */

/** Every 429 the page receives, and every request of the app to the API (GraphQL, better-auth), with its time. */
function watchTraffic(page: Page): { limited: string[]; appRequests: number[] } {
  const seen = { limited: [] as string[], appRequests: [] as number[] };
  page.on('response', (r) => {
    if (r.status() === 429) seen.limited.push(`${r.request().method()} ${r.url()}`);
  });
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/graphql' || path.startsWith('/api/')) seen.appRequests.push(Date.now());
  });
  return seen;
}

async function expectNoRateLimitMessage(page: Page): Promise<void> {
  await expect(page.getByText(/rate limit|too many requests/i)).toHaveCount(0);
}

/** A new user whose organization is on the Free plan (the e2e server makes new organizations Enterprise). */
async function freeUser(page: Page, name: string): Promise<void> {
  const { email } = await signUp(page, name);
  await setPlanOf(email, 'FREE');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
}

/** Waits, when needed, so that what follows starts early in a fixed one-minute rate window. */
async function freshMinute(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 100));
}

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('on the Free plan, 60 views in half a minute meet no rate limit', async ({ page }) => {
  await freeUser(page, 'Free Browser');
  await createProject(page, `${site.origin}/about`, 'Browsed Garden');
  const traffic = watchTraffic(page);
  const main = page.getByRole('navigation', { name: 'Main' });
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const views: (() => Promise<void>)[] = [
    async () => {
      await main.getByRole('link', { name: 'Projects' }).click();
      await expect(heading('Projects')).toBeVisible();
    },
    async () => {
      await page.getByRole('link', { name: 'Browsed Garden' }).first().click();
      await expect(heading('Browsed Garden')).toBeVisible();
    },
    async () => {
      await main.getByRole('link', { name: 'Settings' }).click();
      await expect(heading('Settings')).toBeVisible();
    },
    async () => {
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Members' }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'Members', exact: true })).toBeVisible();
    },
    async () => {
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'API keys' }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'API keys', exact: true })).toBeVisible();
    },
    async () => {
      await main.getByRole('link', { name: 'Tools' }).click();
      await expect(heading('Free SEO tools')).toBeVisible();
    },
  ];
  await freshMinute();
  const started = Date.now();
  // A quick person's pace, two views a second at most: Playwright's own is a script's, 15 a second (the app's budget
  // comes APP_RATE_BURST at once, then spread over the minute).
  for (let i = 0; i < 60; i += 1) {
    await views[i % views.length]();
    if (i % 10 === 9) await expectNoRateLimitMessage(page);
    await page.waitForTimeout(Math.max(0, started + (i + 1) * 500 - Date.now()));
  }
  const elapsed = Date.now() - started;
  const inFirstMinute = traffic.appRequests.filter((t) => t - started < 60_000).length;
  expect(elapsed).toBeLessThan(60_000);
  const summary = `60 views in ${elapsed} ms; ${inFirstMinute} API requests in the first minute`;
  test.info().annotations.push({ type: 'traffic', description: summary });
  console.log(summary);
  // Far more than the Free plan's 10 requests a minute on Surface B, and not one refused.
  expect(inFirstMinute).toBeGreaterThan(30);
  expect(traffic.limited).toEqual([]);
  await expectNoRateLimitMessage(page);
});

test('on the Free plan, an audit watched for two minutes meets no rate limit; a hidden tab stops polling', async ({
  page,
}) => {
  test.setTimeout(6 * 60_000);
  await freeUser(page, 'Free Watcher');
  await createProject(page, `${site.origin}/tortoise/`, 'Tortoise Garden');
  const traffic = watchTraffic(page);
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit running' })).toBeVisible({ timeout: 30_000 });
  const crawled = page.getByRole('definition').first();

  const started = Date.now();
  while (Date.now() - started < 120_000) {
    await page.waitForTimeout(10_000);
    await expect(page.getByRole('heading', { name: 'Audit running' })).toBeVisible();
    await expectNoRateLimitMessage(page);
  }
  expect(traffic.limited).toEqual([]);
  // The progress kept coming: pages were crawled while we watched, and the polling backed off (at most one
  // request every 1.5 s would be 80 in two minutes; with back-off to 15 s it is a handful per phase).
  expect(Number(await crawled.textContent())).toBeGreaterThan(0);
  const polls = traffic.appRequests.filter((t) => t >= started).length;
  test.info().annotations.push({ type: 'traffic', description: `${polls} API requests in 2 minutes of watching` });
  console.log(`${polls} API requests in 2 minutes of watching`);
  expect(polls).toBeGreaterThan(2);
  expect(polls).toBeLessThan(40);
  await expectAccessible(page, 'the overview of a running audit on the Free plan');

  // A hidden tab does not poll; shown again, it refreshes at once.
  const setHidden = (hidden: boolean) =>
    page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  const hiddenAt = Date.now();
  await page.waitForTimeout(20_000);
  expect(traffic.appRequests.filter((t) => t >= hiddenAt)).toEqual([]);
  const refreshed = page.waitForRequest((r) => new URL(r.url()).pathname === '/graphql', { timeout: 3_000 });
  await setHidden(false);
  await refreshed;

  await page.getByRole('button', { name: 'Cancel audit' }).click();
  // A confirmation, when the page asks for one.
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  const cancelled = page.getByText('The latest audit was cancelled');
  await expect(cancelled.or(confirm)).toBeVisible();
  if (await confirm.isVisible()) await confirm.getByRole('button', { name: /cancel audit/i }).click();
  await expect(cancelled).toBeVisible({ timeout: 30_000 });
  expect(traffic.limited).toEqual([]);
});

test('a script with the same cookie on /api/projects still gets 429 at its 11th call in a minute', async ({ page }) => {
  await freeUser(page, 'Free Scripter');
  await freshMinute();
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 11; i += 1) {
    // page.request shares the browser context's cookies: the same session as the app.
    last = await page.request.get('/api/projects');
    statuses.push(last.status());
  }
  // The contract: Free = free tools only (403), 10 requests a minute on Surface B, then 429.
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
  expect(statuses[10]).toBe(429);
  expect(await last!.json()).toMatchObject({ code: 'RATE_LIMITED' });
  expect(last!.headers()).toMatchObject({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0' });
  expect(Number(last!.headers()['retry-after'])).toBeGreaterThan(0);
  // The app itself is not locked out.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expectNoRateLimitMessage(page);
});
