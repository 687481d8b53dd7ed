import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import pg from 'pg';
import { expect, test as base, type Page } from '@playwright/test';

export const uniq = (): string => randomBytes(4).toString('hex');

/** Messages the browser logs for responses a test provokes on purpose (a 429, a 401 after revoking a key). */
const expectedConsole: RegExp[] = [];
export function expectConsoleError(pattern: RegExp): void {
  expectedConsole.push(pattern);
}

/**
 * Every test fails on a console error or an uncaught exception in the page, and on a CSP violation (which
 * Chromium reports as a console error).
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      expectedConsole.length = 0;
      page.on('console', (m) => {
        if (m.type() === 'error' && !expectedConsole.some((p) => p.test(m.text()))) errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
      await use(errors);
      expect(errors, 'console errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * axe-core over the page as it is now: no serious or critical violation of WCAG 2.1 A/AA or best practice.
 * react-aria's live announcer is left out: for 7 s after a pending button (e.g. "Sign up") it keeps an
 * announcement that points at that button's label, which the next page no longer has.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .exclude('[data-live-announcer]')
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.html.slice(0, 160))
          .join(' | ')}`,
    );
  expect(serious, `axe: serious or critical violations on ${what}`).toEqual([]);
}

/** Fails when the page scrolls sideways at the viewport's width (content wider than the screen). */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, viewport } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(scrollWidth, `${what} is ${scrollWidth} px wide at ${viewport} px`).toBeLessThanOrEqual(viewport);
}

/** Optional full-page shots for reviewing a change: SHOTS_DIR=/tmp/shots npm run test:web. */
export const SHOTS_DIR = process.env.SHOTS_DIR;

export async function reviewShot(page: Page, name: string): Promise<void> {
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

/** The page at 1280 and at 375 px wide (SHOTS_DIR, named `<name>-1280`, `<name>-375`), then back at 1280. */
export async function reviewShotsAtBothWidths(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  await reviewShot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await reviewShot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Optional README screenshots: SCREENSHOTS_DIR=docs/screenshots npm run test:web. */
export async function screenshotFor(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: false });
}

export async function signUp(page: Page, name = 'Ada Gardener'): Promise<{ email: string; password: string }> {
  const email = `ada-${uniq()}@example.test`;
  const password = 'correct-horse-battery';
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  return { email, password };
}

/** Picks a tool's input mode by its label, as a person clicks it. */
export async function chooseInput(page: Page, label: string): Promise<void> {
  await page.getByText(label, { exact: true }).click();
  await expect(page.getByRole('radio', { name: label })).toBeChecked();
}

export { expect };

/** Creates a project from the projects page through the New project dialog, and waits for the project's page. */
export async function createProject(page: Page, url: string, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Website URL').fill(url);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Plans are set server-side only (billing, the CLI); the test does it in the database. */
export async function setPlanOf(email: string, plan: 'FREE' | 'PRO' | 'ENTERPRISE'): Promise<void> {
  const client = new pg.Client({
    connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test',
  });
  await client.connect();
  try {
    await client.query(
      `UPDATE organization SET plan = $2 WHERE id IN (SELECT m."organizationId" FROM member m JOIN "user" ` +
        `u ON u.id = m."userId" WHERE u.email = $1)`,
      [email, plan],
    );
  } finally {
    await client.end();
  }
}
