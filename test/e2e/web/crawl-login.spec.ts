import { createProject, expect, expectAccessible, expectNoSidewaysScroll, signUp, test, uniq } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('crawl login: saved write-only, replaced, suspended by a wider scope and confirmed, removed', async ({ page }) => {
  const password = `pw-${uniq()}-secret`;
  const token = `tok${uniq()}bearer`;
  await signUp(page, 'Log Inn');
  await page.goto('/projects');
  await createProject(page, `${site.origin}/`, 'Members garden');
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Crawl login' });
  await expect(section.getByText('No crawl login: audits crawl the site signed out.')).toBeVisible();

  // A login URL on another site is refused at its field.
  await section.getByLabel('Login page URL').fill('https://elsewhere.example/login');
  await section.getByLabel('Username', { exact: true }).fill('gardener');
  await section.getByLabel('Password', { exact: true }).fill(password);
  await section.getByRole('button', { name: 'Save login' }).click();
  await expect(section.getByText(/must be on the project's site/).first()).toBeVisible();
  await expectAccessible(page, 'the crawl login with an error');

  await section.getByLabel('Login page URL').fill(`${site.origin}/login`);
  await section.getByLabel('Username field name').fill('user');
  await section.getByLabel('Password field name').fill('pass');
  await section.getByRole('button', { name: 'Save login' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  // After a reload the facts are shown again, the secrets never: empty fields that say a value is saved.
  await page.reload();
  await expect(section.getByText(/Signing in with: Login form/)).toBeVisible();
  await expect(section.getByLabel('Login page URL')).toHaveValue(`${site.origin}/login`);
  await expect(section.getByLabel('Username field name')).toHaveValue('user');
  await expect(section.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(section.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');
  await expect(section.getByText('Saved — enter a new password to replace it.')).toBeVisible();
  expect(await page.content()).not.toContain(password);
  await expectAccessible(page, 'the saved crawl login');

  // Another kind: a bearer token.
  await section.getByRole('button', { name: /Sign in with/ }).click();
  await page.getByRole('option', { name: 'Bearer token' }).click();
  await section.getByRole('textbox', { name: 'Bearer token' }).fill(token);
  await section.getByRole('button', { name: 'Save login' }).click();
  await expect(section.getByText(/Signing in with: Bearer token/)).toBeVisible();
  await expect(section.getByRole('textbox', { name: 'Bearer token' })).toHaveValue('');
  expect(await page.content()).not.toContain(token);

  // Turning subdomains on widens where the login would go: it is suspended until it is confirmed (issue 47).
  await expect(section.getByText(new RegExp(`Sent only to ${new URL(site.origin).host}\\.`))).toBeVisible();
  await page.getByText('Crawl subdomains').click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  // The login section may still say its own "Saved. …": the settings form's status is the one that reads just "Saved.".
  await expect(page.getByRole('status').filter({ hasText: /^Saved\.$/ })).toBeVisible();
  await page.reload();
  const suspended = section.getByRole('alert');
  await expect(suspended).toContainText('Suspended: subdomains were added to the crawl scope');
  await expectAccessible(page, 'a suspended crawl login');
  await suspended.getByRole('button', { name: 'Confirm login for the current URL and scope' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Confirmed.' })).toBeVisible();
  await expect(section.getByRole('alert')).toHaveCount(0);
  await expect(section.getByText(/and its subdomains\./)).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, 'the crawl login at 375 px');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Removing asks first; cancelling keeps it.
  await section.getByRole('button', { name: 'Remove login' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove the crawl login?' });
  await expectAccessible(page, 'the remove confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByText(/Signing in with: Bearer token/)).toBeVisible();
  await section.getByRole('button', { name: 'Remove login' }).click();
  await dialog.getByRole('button', { name: 'Remove login' }).click();
  await expect(section.getByText('No crawl login: audits crawl the site signed out.')).toBeVisible();
  await page.reload();
  await expect(section.getByText('No crawl login: audits crawl the site signed out.')).toBeVisible();
});
