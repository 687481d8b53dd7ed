import {
  createProject,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  reviewShotsAtBothWidths,
  signUp,
  test,
} from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

// A long reason, as people write them: it must wrap in its cell, not widen the table past the page.
const REASON =
  'The CMS writes this description from the product feed, which another team owns; it is fixed upstream next ' +
  'quarter, when the new templates ship and every product page gets a summary written by hand.';

test("won't fix: mark an affected URL with a reason, the score says so, undo from the checks page", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUp(page, 'Wont Fixer');
  await createProject(page, `${site.origin}/`, 'Won’t Fix Garden');
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 90_000 });
  const overview = page.url();
  const why = page.getByRole('region', { name: 'Why this score' });
  await expect(why).toContainText(/Half the overall score is health/);
  await expect(why).not.toContainText("won't fix");

  // The issue's URL table: Won't fix on a row opens a dialog asking why (keyboard only).
  await page.getByRole('link', { name: 'View issues' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit issues' })).toBeVisible();
  const issue = page.getByRole('button', { name: /Missing meta description/ }).first();
  await issue.focus();
  await page.keyboard.press('Enter');
  await expect(issue).toHaveAttribute('aria-expanded', 'true');
  const open = page.getByRole('link', { name: /^Open its \d+ affected URLs?$/ });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /Missing meta description/ })).toBeVisible();
  const affected = page.getByRole('table', { name: /^Affected URLs/ });
  const mark = affected.getByRole('button', { name: /^Won't fix / }).first();
  const markedUrl = (await mark.getAttribute('aria-label'))!.replace(/^Won't fix /, '');
  await mark.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: "Won't fix" });
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await expectAccessible(page, "the won't fix dialog");
  // Empty: refused at the field, nothing sent.
  await dialog.getByRole('button', { name: "Mark as won't fix" }).click();
  await expect(dialog.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Reason').fill(REASON);
  await dialog.getByRole('button', { name: "Mark as won't fix" }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // Still listed, its row marked with who, when and why; the issue counts it.
  const markedHeader = page.getByRole('rowheader', { name: markedUrl, exact: true });
  const marked = affected.getByRole('row').filter({ has: markedHeader });
  await expect(marked).toContainText(`Won't fix: ${REASON} — Wont Fixer`);
  await expect(marked.getByRole('button', { name: `Undo won't fix of ${markedUrl}` })).toBeVisible();
  await expect(page.getByText("1 won't fix", { exact: true })).toBeVisible();
  await expectAccessible(page, "an issue with a won't fix URL");
  // At 1280 px the issue's table fits its box: the reason wraps in its cell, nothing is cut at the right edge.
  const box = page.getByRole('region', { name: /^Affected URLs/ });
  const { scrollWidth, clientWidth } = await box.evaluate((e) => ({
    scrollWidth: e.scrollWidth,
    clientWidth: e.clientWidth,
  }));
  expect(scrollWidth, "the issue's table scrolls sideways at 1280 px").toBeLessThanOrEqual(clientWidth);
  await reviewShotsAtBothWidths(page, 'issues-wont-fix');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page, "an issue with a won't fix URL at 375 px");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Why this score says what was left out.
  await page.goto(overview);
  await expect(why).toContainText("1 occurrence marked “won't fix” by the project is left out of this score");

  // A second audit of the unchanged site keeps the marking; the comparison says the change is scored before it.
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(
    page.getByRole('region', { name: 'Audits' }).getByRole('row').filter({ hasText: 'Completed' }),
  ).toHaveCount(2, { timeout: 90_000 });
  await page.getByRole('link', { name: /previous audit: see what changed/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Changes between audits' })).toBeVisible();
  await expect(page.getByText('Some issues are marked “won’t fix”')).toBeVisible();
  await expect(page.getByText(/accepting an issue is not progress/)).toBeVisible();
  const overall = page.getByRole('row', { name: /^Overall/ });
  await expect(overall).toContainText(/\d+ before “won’t fix”/);
  await expect(overall).toContainText('±0');
  await expectAccessible(page, "the comparison with a won't fix marking");
  await reviewShotsAtBothWidths(page, 'comparison-wont-fix');
  await page.goto(overview);

  // The project's markings on its checks page: who, why, and Undo.
  await page.goto(`${new URL(overview).pathname.replace(/\/$/, '')}/checks`);
  await expect(page.getByRole('heading', { level: 2, name: "Won't fix" })).toBeVisible();
  const markings = page.getByRole('table', { name: "Won't fix markings" });
  await expect(markings.getByRole('row').filter({ hasText: REASON })).toContainText('Wont Fixer');
  await expectAccessible(page, "the project's won't fix markings");
  await markings.getByRole('button', { name: /^Undo won't fix of / }).click();
  await expect(page.getByText("Nothing is marked won't fix.")).toBeVisible();

  await page.goto(overview);
  await expect(why).toContainText(/Half the overall score is health/);
  await expect(why).not.toContainText("won't fix");
});
