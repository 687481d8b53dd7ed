import { createProject, expect, expectAccessible, reviewShotsAtBothWidths, signUp, test } from './fixtures';
import { startFarLinksSite } from './fixture-site';

/**
 * After its last page, an audit waits for its links to other sites. It does not keep the user waiting: once its pages
 * are done it is readable (scores, issues), and the overview says how far the external checks got, as N of M, while
 * the page is watched (no reload); when their verdicts are in, the note goes and the broken one is an issue.
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

test('an audit is readable before its slow external links answer, and says "External links: N of M checked"', async ({
  page,
}) => {
  await signUp(page, 'Far Reader');
  await createProject(page, `${site.origin}/far/`, 'Far Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();

  // Readable while the checks go on: the scores are there, and the note says N of M.
  const note = page.getByRole('status', { name: new RegExp(`^External links: \\d+ of ${LINKS} checked$`) });
  await expect(note).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible();
  await expect(note).toContainText('left out of comparisons and alerts');
  const checked = async () => Number(((await note.textContent()) ?? '').match(/External links: (\d+)/)?.[1] ?? LINKS);
  const first = await checked();
  expect(first).toBeLessThan(LINKS);
  await expectAccessible(page, 'the overview of an audit readable before its external links answered');
  await reviewShotsAtBothWidths(page, 'audit-readable-external');
  // The figure moves while we watch (the page polls until the audit is final)...
  await expect.poll(checked, { timeout: 30_000 }).toBeGreaterThan(first);
  // ...and the note goes once the verdicts are in.
  await expect(note).toBeHidden({ timeout: 60_000 });
  await expect(page.getByText(`External links ${LINKS} of ${LINKS} checked`)).toBeVisible();
  // Each target was asked once (HEAD answers them all).
  expect(new Set(site.slow.requests.map((r) => r.path)).size).toBe(LINKS);
});
