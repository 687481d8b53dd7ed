import {
  expectAccessible,
  expectConsoleError,
  signUp,
  test,
  expect,
  uniq,
  createProject,
  reviewShotsAtBothWidths,
} from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';
import { waitForMail } from './mail-sink';
import { linkIn } from '../../support/mail-message';

let site: FixtureSite;
test.beforeAll(async () => {
  site = await startWebFixtureSite();
});
test.afterAll(async () => {
  await site?.close();
});

test('an invitation by e-mail: the invitee signs up from its link, confirms the address, accepts, switches', async ({
  page,
  browser,
}) => {
  await signUp(page, 'Olive Owner');
  await createProject(page, `${site.origin}/`, 'Shared Garden');

  // Settings → Members: invite by e-mail.
  await page.goto('/settings/members');
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No pending invitations' })).toBeVisible();
  await expectAccessible(page, 'the members page');
  const invitee = `ivy-${uniq()}@example.test`;
  await page.getByRole('button', { name: 'Invite member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a member' });
  await invite.getByLabel('E-mail').fill(invitee);
  await invite.getByLabel('Role').selectOption('admin');
  await expectAccessible(page, 'the invite dialog');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  const ready = page.getByRole('dialog', { name: 'Invitation ready' });
  await expect(ready.getByText('Invitation sent')).toBeVisible();
  const shown = await ready.getByLabel(`Invitation link for ${invitee}`).inputValue();
  await ready.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: new RegExp(invitee) })).toBeVisible();
  await reviewShotsAtBothWidths(page, 'members-invited');

  // The message the SMTP server received: its link, followed as the second person in another browser.
  const mail = await waitForMail(invitee);
  expect(mail.subject).toBe("Invitation to join Olive Owner's organization");
  expect(mail.html).toContain('Open the invitation');
  const link = linkIn(mail, 'http://127.0.0.1:');
  // The invitation's secret is the link's fragment: the same link the inviter was shown, once.
  expect(link).toMatch(/\/invitations\/[A-Za-z0-9_-]+#[A-Za-z0-9_-]{43}$/);
  expect(link).toBe(shown);

  const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const ivy = await other.newPage();
    await ivy.goto(link);
    // Signed out: sign in first, or create an account; either way the invitation comes next.
    await expect(ivy.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await ivy.getByRole('link', { name: 'Create an account' }).click();
    await ivy.getByLabel('Name').fill('Ivy Invitee');
    await ivy.getByLabel('E-mail').fill(invitee);
    await ivy.getByLabel('Password').fill('ivy-password-1');
    await ivy.getByRole('button', { name: 'Sign up' }).click();
    // An unconfirmed address cannot open the invitation: sign-up sent the confirmation, which leads back here.
    await expect(ivy.getByText('Confirm your e-mail address first')).toBeVisible();
    await expectAccessible(ivy, 'the invitation page, address unconfirmed');
    const confirmation = await waitForMail(invitee);
    expect(confirmation.subject).toBe('Confirm your e-mail address');
    await ivy.goto(linkIn(confirmation, 'http://127.0.0.1:'));
    await expect(ivy.getByRole('heading', { level: 1, name: "Join Olive Owner's organization" })).toBeVisible();
    await expect(ivy.getByText('as an admin')).toBeVisible();
    await expectAccessible(ivy, 'the invitation page');
    await reviewShotsAtBothWidths(ivy, 'invitation');
    await ivy.getByRole('button', { name: 'Accept invitation' }).click();
    // Accepting does not switch organizations by itself: the invitee chooses to.
    await expect(ivy.getByText("You joined Olive Owner's organization")).toBeVisible();
    await ivy.getByRole('button', { name: "Switch to Olive Owner's organization" }).click();
    await expect(ivy.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(ivy.getByRole('link', { name: /Shared Garden/ }).first()).toBeVisible();

    // The owner sees the new member (and no pending invitation).
    await page.reload();
    await expect(page.getByRole('row', { name: /Ivy Invitee/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No pending invitations' })).toBeVisible();
    await expect(page.getByLabel('Role of Ivy Invitee')).toHaveValue('admin');

    // The password reset by e-mail, signed out.
    await ivy.getByRole('button', { name: /Account:/ }).click();
    await ivy.getByRole('menuitem', { name: 'Sign out' }).click();
    // Signed out once the landing page shows: navigating earlier could read the session before it ended.
    await expect(ivy.getByRole('heading', { level: 1 })).toContainText('Find what holds your site back');
    await ivy.goto('/sign-in');
    await ivy.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(ivy.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await expectAccessible(ivy, 'the forgot-password page');
    await ivy.getByLabel('E-mail').fill(invitee);
    await ivy.getByRole('button', { name: 'Send reset link' }).click();
    await expect(ivy.getByText('Check your inbox')).toBeVisible();
    const reset = await waitForMail(invitee);
    expect(reset.subject).toBe('Reset your password');
    await ivy.goto(linkIn(reset, 'http://127.0.0.1:'));
    await expect(ivy.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    await expectAccessible(ivy, 'the reset-password page');
    await ivy.getByLabel('New password', { exact: true }).fill('ivy-new-password-2');
    await ivy.getByLabel('Repeat the new password').fill('ivy-new-password-2');
    await ivy.getByRole('button', { name: 'Set new password' }).click();
    await expect(ivy.getByText('Your password was changed')).toBeVisible();
    await ivy.getByRole('link', { name: 'Sign in' }).first().click();
    await ivy.getByLabel('E-mail').fill(invitee);
    await ivy.getByLabel('Password').fill('ivy-new-password-2');
    await ivy.getByRole('button', { name: 'Sign in' }).click();
    await expect(ivy.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('organization settings, a new organization, and the account page', async ({ page }) => {
  await signUp(page, 'Orla Org');
  await page.goto('/settings/organization');
  await expect(page.getByRole('heading', { name: 'Organization' })).toBeVisible();
  await expectAccessible(page, 'the organization page');
  const slug = `orla-${uniq()}`;
  await page.getByLabel('Name').fill('Orla Studio');
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('button', { name: /Orla Studio/ }).first()).toBeVisible();
  await reviewShotsAtBothWidths(page, 'organization');

  // A second organization, from the header's switcher; it becomes the active one.
  await page
    .getByRole('button', { name: /Orla Studio/ })
    .first()
    .click();
  await page.getByRole('option', { name: 'Create organization…' }).click();
  const create = page.getByRole('dialog', { name: 'Create organization' });
  await create.getByLabel('Name').fill('Second Agency');
  await expect(create.getByLabel('Slug')).toHaveValue('second-agency');
  await create.getByLabel('Slug').fill(`second-${uniq()}`);
  await expectAccessible(page, 'the create-organization dialog');
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Second Agency/ }).first()).toBeVisible();

  // Account: the page, its sessions, a wrong current password.
  await page.getByRole('button', { name: /Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.getByText('This browser')).toBeVisible();
  await expectAccessible(page, 'the account page');
  await reviewShotsAtBothWidths(page, 'account');
  expectConsoleError(/status of 400/);
  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password').fill('another-password-3');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The current password is wrong.' })).toBeVisible();

  // Deleting the account: Orla is alone in both organizations, so both go with it.
  await page.getByRole('button', { name: 'Delete account…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await confirm.getByLabel('Password').fill('correct-horse-battery');
  await expectAccessible(page, 'the delete-account dialog');
  await confirm.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(/\/$/);
});
