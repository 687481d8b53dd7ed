import { createProject, expect, expectAccessible, reviewShotsAtBothWidths, signUp, test } from './fixtures';
import { startFarLinksSite } from './fixture-site';

/**
 * After its last page, an audit waits for its links to other sites: the progress card says so, as N of M links
 * checked, and the figure moves while the page is watched (no reload).
 */
const LINKS = 60;

let site: Awaited<ReturnType<typeof startFarLinksSite>>;
test.beforeAll(async () => {
  // 60 targets on one host, 6 at a time, 1.5 s each: about 15 s of waiting after the one page.
  site = await startFarLinksSite(LINKS, 1_500);
});
test.afterAll(async () => {
  await site?.close();
});

test('the progress card says "Checking links to other sites: N of M" while the checks go on', async ({ page }) => {
  await signUp(page, 'Far Reader');
  await createProject(page, `${site.origin}/far/`, 'Far Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit running' })).toBeVisible({ timeout: 30_000 });

  const card = page.locator('section.progress-card');
  await expect(card.getByText('Checking links to other sites')).toBeVisible({ timeout: 30_000 });
  // The progress bar is named by the label and tells N of M links.
  const progress = page.getByRole('progressbar', { name: 'Checking links to other sites' });
  const valueText = () => progress.getAttribute('aria-valuetext');
  await expect.poll(valueText).toMatch(new RegExp(`^\\d+ of ${LINKS} links$`));
  await expect(card).toContainText(new RegExp(`Checking links to other sites\\s*\\d+ of ${LINKS} links`));
  const first = Number((await valueText())!.split(' ')[0]);
  expect(first).toBeLessThan(LINKS);
  await expectAccessible(page, 'the overview of an audit checking its links to other sites');
  await reviewShotsAtBothWidths(page, 'audit-progress-external');
  // The figure moves while we watch.
  await expect
    .poll(async () => Number(((await valueText()) ?? `${LINKS}`).split(' ')[0]), { timeout: 20_000 })
    .toBeGreaterThan(first);

  // Then the audit goes on to its site-wide checks and completes: the card goes away.
  await expect(page.getByRole('heading', { name: 'Audit running' })).toBeHidden({ timeout: 60_000 });
  // Each target was asked once (HEAD answers them all).
  expect(new Set(site.slow.requests.map((r) => r.path)).size).toBe(LINKS);
});
