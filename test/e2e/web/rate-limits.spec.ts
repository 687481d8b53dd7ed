import { chooseInput, expectConsoleError, test, expect } from './fixtures';

/**
 * Runs last (the `limits` project of playwright.config.ts depends on every other spec): it uses up the client IP's
 * allowances of anonymous requests and failed sign-ins on the test server for a minute.
 */
test.describe.configure({ mode: 'serial' });

test('the anonymous rate limit of the free tools is explained when hit', async ({ page }) => {
  await page.goto('/tools/sitemap');
  await chooseInput(page, 'Paste the XML');
  await page
    .getByLabel('Sitemap XML')
    .fill(
      '<?xml version="1.0"?><urlset ' +
        'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>',
    );
  expectConsoleError(/status of 429/);
  // ANONYMOUS_RATE_PER_MINUTE=10 here, counted in fixed minute windows: 22 requests put 11 into one window.
  for (let i = 0; i < 22; i += 1) {
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql'));
    await page.getByRole('button', { name: 'Validate' }).click();
    const response = await answered;
    const limited = page.getByRole('alert').filter({ hasText: 'Too many requests for now' });
    if (response.status() === 429) {
      await expect(limited).toBeVisible();
      await expect(limited).toContainText(/Without an account, the free tools accept a few requests a minute/);
      await expect(limited).toContainText(/You can try again in \d+ seconds/);
      await expect(limited.getByRole('link', { name: 'Sign up' })).toBeVisible();
      return;
    }
    await expect(page.getByText('Valid sitemap')).toBeVisible();
  }
  throw new Error('no rate limit after 22 anonymous tool requests');
});

test('too many failed sign-ins: the wait time is given', async ({ page }) => {
  await page.goto('/sign-in');
  expectConsoleError(/status of 401|status of 429/);
  // The budget (AUTH_FAILURES_PER_MINUTE=12 here) counts in fixed minute windows: 26 attempts, made in well under a
  // minute, put at least 13 into one window wherever a window boundary falls.
  for (let i = 0; i < 26; i += 1) {
    await page.getByLabel('E-mail').fill(`nobody-${i}@example.test`);
    await page.getByLabel('Password').fill('wrong-password-123');
    const answered = page.waitForResponse((r) => r.url().includes('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const response = await answered;
    if (response.status() === 429) {
      const limited = page.getByText(/Too many attempts\. Try again in \d+ seconds\./);
      await expect(limited).toBeVisible();
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      return;
    }
    expect(response.status()).toBe(401);
    await expect(page.getByText('Wrong e-mail or password.')).toBeVisible();
  }
  throw new Error('no rate limit after 26 failed sign-ins');
});
