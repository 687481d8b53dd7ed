import { chooseInput, expectConsoleError, test, expect } from './fixtures';

/**
 * Runs last (files run in name order, one at a time): it uses up the client IP's allowances of anonymous
 * requests and failed sign-ins on the test server for a minute.
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
  for (let i = 0; i < 12; i += 1) {
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql'));
    await page.getByRole('button', { name: 'Validate' }).click();
    await answered;
    const limited = page.getByRole('alert').filter({ hasText: 'Too many requests for now' });
    await expect(limited.or(page.getByText('Valid sitemap'))).toBeVisible();
    if (await limited.isVisible()) {
      await expect(limited).toContainText(/Without an account, the free tools accept a few requests a minute/);
      await expect(limited).toContainText(/You can try again in \d+ seconds/);
      await expect(limited.getByRole('link', { name: 'Sign up' })).toBeVisible();
      return;
    }
  }
  throw new Error('no rate limit after 12 anonymous tool requests');
});

test('too many failed sign-ins: the wait time is given', async ({ page }) => {
  await page.goto('/sign-in');
  expectConsoleError(/status of 401|status of 429/);
  for (let i = 0; i < 14; i += 1) {
    await page.getByLabel('E-mail').fill(`nobody-${i}@example.test`);
    await page.getByLabel('Password').fill('wrong-password-123');
    const answered = page.waitForResponse((r) => r.url().includes('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await answered;
    const limited = page.getByText(/Too many attempts\. Try again in \d+ seconds\./);
    const wrong = page.getByText('Wrong e-mail or password.');
    await expect(limited.or(wrong)).toBeVisible();
    if (await limited.isVisible()) return;
  }
  throw new Error('no rate limit after 14 failed sign-ins');
});
