import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProject,
  createTestApp,
  gql,
  sessionCookie,
  signUp,
  uniq,
  type TestApp,
  type TestUser,
} from '../support/app.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { linkIn, parseMail } from '../support/mail-message.js';

let t: TestApp;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({
    DEFAULT_PLAN: 'PRO',
    SMTP_URL: `smtp://mailer:smtp-secret-pass@127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'SEO Audit <no-reply@example.test>',
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** better-auth's HTTP endpoint under /api/auth, as the web app calls it. */
async function auth(path: string, body: unknown, cookie?: string, method: 'GET' | 'POST' = 'POST') {
  const res = await t.app.inject({
    method,
    url: `/api/auth${path}`,
    headers: { origin: t.config.baseUrl, ...(cookie ? { cookie } : {}) },
    ...(method === 'POST' ? { payload: body as Record<string, unknown> } : {}),
  });
  const text = res.body;
  return { status: res.statusCode, json: text ? JSON.parse(text) : null, res };
}

async function invite(owner: TestUser, email: string, role = 'member', organizationId = owner.organizationId) {
  const res = await auth('/organization/invite-member', { email, role, organizationId }, owner.cookie);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as { id: string; status: string; expiresAt: string; link: string };
}

/** The secret in an invitation link (its fragment). */
const secretOf = (link: string): string => new URL(link).hash.slice(1);

/** Marks the user's address confirmed, as opening the sign-up mail's link does (the first test follows it). */
async function confirmAddress(user: TestUser, app: TestApp = t) {
  await app.runtime.pool.query('UPDATE "user" SET "emailVerified" = true WHERE id = $1', [user.userId]);
}

/** Invites a new user, who signs up with the invited address, confirms it and accepts. */
async function join(owner: TestUser, role = 'member'): Promise<TestUser & { memberId: string }> {
  const email = `mate-${uniq()}@example.test`;
  const invitation = await invite(owner, email, role);
  const mate = await signUp(t, { email });
  await confirmAddress(mate);
  const accepted = await auth('/organization/accept-invitation', { invitationId: invitation.id }, mate.cookie);
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
  return { ...mate, memberId: accepted.json.member.id as string };
}

async function memberId(user: TestUser, organizationId = user.organizationId): Promise<string> {
  const { rows } = await t.runtime.pool.query('SELECT id FROM "member" WHERE "userId" = $1 AND "organizationId" = $2', [
    user.userId,
    organizationId,
  ]);
  return rows[0].id as string;
}

const orgPlan = async (id: string) =>
  (await t.runtime.pool.query('SELECT plan, slug, name FROM "organization" WHERE id = $1', [id])).rows[0] as
    { plan: string; slug: string; name: string } | undefined;

describe('invitations by e-mail', () => {
  it('sends an invitation (text + HTML); the invitee follows its link, accepts and sees the projects', async () => {
    const owner = await signUp(t);
    const project = await createProject(t, owner, `https://team-${uniq()}.example.com/`);
    const email = `Invitee-${uniq()}@example.test`;
    const before = smtp.messages.length;
    const invitation = await invite(owner, email, 'admin');
    const received = await smtp.waitFor(email, 10_000, before);
    const mail = parseMail(received.raw);
    expect(mail.subject).toMatch(/^Invitation to join /);
    expect(mail.headers.from).toContain('no-reply@example.test');
    expect(mail.html).toContain('<a href=');
    const link = linkIn(mail, `${t.config.baseUrl}/invitations/`);
    // The link the inviter was given, with its secret in the fragment (never sent to a server).
    expect(link).toBe(invitation.link);
    expect(link).toMatch(new RegExp(`^${t.config.baseUrl}/invitations/${invitation.id}#[A-Za-z0-9_-]{43}$`));
    expect(mail.html).toContain(link);
    expect(mail.text).toContain('as an admin');

    // The second person signs up with the invited address: until they confirm it, the invitation stays closed.
    const signUpMails = smtp.messages.length;
    const invitee = await signUp(t, { email: email.toLowerCase() });
    const id = new URL(link).pathname.split('/').pop()!;
    const closed = await auth(`/organization/get-invitation?id=${id}`, undefined, invitee.cookie, 'GET');
    expect(closed.status).toBe(403);
    expect(closed.json.code).toBe('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION');
    const early = await auth('/organization/accept-invitation', { invitationId: id }, invitee.cookie);
    expect(early.status).toBe(403);
    expect(early.json.code).toBe('EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION');
    // Sign-up sent the confirmation; its link confirms the address.
    const confirmation = parseMail((await smtp.waitFor(email, 10_000, signUpMails)).raw);
    expect(confirmation.subject).toBe('Confirm your e-mail address');
    const confirm = linkIn(confirmation, `${t.config.baseUrl}/api/auth/verify-email?token=`);
    expect(
      (await t.app.inject({ method: 'GET', url: confirm.slice(t.config.baseUrl.length) })).statusCode,
    ).toBeLessThan(400);

    const seen = await auth(`/organization/get-invitation?id=${id}`, undefined, invitee.cookie, 'GET');
    expect(seen.status).toBe(200);
    expect(seen.json).toMatchObject({ organizationId: owner.organizationId, role: 'admin', status: 'pending' });
    const accepted = await auth(
      '/organization/accept-invitation',
      { invitationId: id, secret: secretOf(link) },
      invitee.cookie,
    );
    expect(accepted.status).toBe(200);

    // Accepting did not switch the session's organization; switching is asked for.
    const stayed = await gql(t, '{ viewer { organization { id } } }', {}, { cookie: invitee.cookie });
    expect(stayed.body.data.viewer.organization.id).toBe(invitee.organizationId);
    const switched = await auth('/organization/set-active', { organizationId: owner.organizationId }, invitee.cookie);
    expect(switched.status).toBe(200);

    // Now their session acts in the new organization: its projects, their role.
    const { body } = await gql(
      t,
      '{ viewer { role organization { id } } projects { id } }',
      {},
      { cookie: invitee.cookie },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.viewer).toEqual({ role: 'admin', organization: { id: owner.organizationId } });
    expect(body.data.projects.map((p: { id: string }) => p.id)).toEqual([project.id]);

    // The owner sees the new member.
    const members = await gql(t, '{ members { email role } }', {}, { cookie: owner.cookie });
    expect(members.body.data.members).toEqual(expect.arrayContaining([{ email: email.toLowerCase(), role: 'admin' }]));
    // An invitation is used once.
    expect((await auth('/organization/accept-invitation', { invitationId: id }, invitee.cookie)).status).toBe(400);
  });

  it('escapes the organization’s and the inviter’s names in the HTML part', async () => {
    const owner = await signUp(t);
    await t.runtime.pool.query('UPDATE "organization" SET name = $1 WHERE id = $2', [
      '<script>alert(1)</script> & Co',
      owner.organizationId,
    ]);
    const email = `esc-${uniq()}@example.test`;
    const before = smtp.messages.length;
    await invite(owner, email);
    const mail = parseMail((await smtp.waitFor(email, 10_000, before)).raw);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(mail.text).toContain('<script>alert(1)</script> & Co');
  });

  it('is for the invited address only: another user can neither read nor accept it', async () => {
    const owner = await signUp(t);
    const invitation = await invite(owner, `someone-${uniq()}@example.test`);
    const stranger = await signUp(t);
    await confirmAddress(stranger);
    expect(
      (await auth(`/organization/get-invitation?id=${invitation.id}`, undefined, stranger.cookie, 'GET')).status,
    ).toBe(403);
    const res = await auth('/organization/accept-invitation', { invitationId: invitation.id }, stranger.cookie);
    expect(res.status).toBe(403);
    const { rows } = await t.runtime.pool.query(
      'SELECT 1 FROM "member" WHERE "userId" = $1 AND "organizationId" = $2',
      [stranger.userId, owner.organizationId],
    );
    expect(rows).toHaveLength(0);
  });

  it('declined, revoked or expired, an invitation cannot be accepted', async () => {
    const owner = await signUp(t);
    const [e1, e2, e3] = [1, 2, 3].map((n) => `later-${n}-${uniq()}@example.test`);
    const declined = await invite(owner, e1);
    const revoked = await invite(owner, e2);
    const expired = await invite(owner, e3);
    const [u1, u2, u3] = [
      await signUp(t, { email: e1 }),
      await signUp(t, { email: e2 }),
      await signUp(t, { email: e3 }),
    ];
    for (const u of [u1, u2, u3]) await confirmAddress(u);

    expect((await auth('/organization/reject-invitation', { invitationId: declined.id }, u1.cookie)).status).toBe(200);
    expect((await auth('/organization/accept-invitation', { invitationId: declined.id }, u1.cookie)).status).toBe(400);

    expect((await auth('/organization/cancel-invitation', { invitationId: revoked.id }, owner.cookie)).status).toBe(
      200,
    );
    expect((await auth('/organization/accept-invitation', { invitationId: revoked.id }, u2.cookie)).status).toBe(400);

    await t.runtime.pool.query(`UPDATE "invitation" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [
      expired.id,
    ]);
    expect((await auth('/organization/accept-invitation', { invitationId: expired.id }, u3.cookie)).status).toBe(400);
    // The owner's list says which is which: the expired one is not shown as pending.
    const listed = await auth(
      `/organization/list-invitations?organizationId=${owner.organizationId}`,
      undefined,
      owner.cookie,
      'GET',
    );
    expect(Object.fromEntries(listed.json.map((i: { id: string; status: string }) => [i.id, i.status]))).toEqual({
      [declined.id]: 'rejected',
      [revoked.id]: 'canceled',
      [expired.id]: 'expired',
    });

    const statuses = await t.runtime.pool.query('SELECT id, status FROM "invitation" WHERE "organizationId" = $1', [
      owner.organizationId,
    ]);
    expect(Object.fromEntries(statuses.rows.map((r) => [r.id, r.status]))).toEqual({
      [declined.id]: 'rejected',
      [revoked.id]: 'canceled',
      [expired.id]: 'pending',
    });
    const members = await gql(t, '{ members { email } }', {}, { cookie: owner.cookie });
    expect(members.body.data.members).toEqual([{ email: owner.email }]);
  });

  it('expires a week after it is sent', async () => {
    const owner = await signUp(t);
    const invitation = await invite(owner, `week-${uniq()}@example.test`);
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
  });

  it('only owners and admins invite, and only with the roles owner, admin or member', async () => {
    const owner = await signUp(t);
    const member = await join(owner, 'member');
    const byMember = await auth(
      '/organization/invite-member',
      { email: `x-${uniq()}@example.test`, role: 'member', organizationId: owner.organizationId },
      member.cookie,
    );
    expect(byMember.status).toBe(403);
    const badRole = await auth(
      '/organization/invite-member',
      { email: `x-${uniq()}@example.test`, role: 'superuser', organizationId: owner.organizationId },
      owner.cookie,
    );
    expect(badRole.status).toBe(400);
  });
});

describe('the last-owner rule', () => {
  it('refuses demoting, removing or the leaving of the only owner, on every endpoint', async () => {
    const owner = await signUp(t);
    const mate = await join(owner, 'admin');
    const ownerMember = await memberId(owner);

    const demote = await auth(
      '/organization/update-member-role',
      { memberId: ownerMember, role: 'admin', organizationId: owner.organizationId },
      owner.cookie,
    );
    expect(demote.status).toBe(400);
    const remove = await auth(
      '/organization/remove-member',
      { memberIdOrEmail: ownerMember, organizationId: owner.organizationId },
      owner.cookie,
    );
    expect(remove.status).toBe(400);
    const leave = await auth('/organization/leave', { organizationId: owner.organizationId }, owner.cookie);
    expect(leave.status).toBe(400);
    // An admin can neither demote nor remove an owner.
    const byAdmin = await auth(
      '/organization/remove-member',
      { memberIdOrEmail: ownerMember, organizationId: owner.organizationId },
      mate.cookie,
    );
    expect(byAdmin.status).toBeGreaterThanOrEqual(400);
    expect((await orgMembers(owner)).find((m) => m.userId === owner.userId)?.role).toBe('owner');

    // With a second owner, the first may step down.
    const promote = await auth(
      '/organization/update-member-role',
      { memberId: mate.memberId, role: 'owner', organizationId: owner.organizationId },
      owner.cookie,
    );
    expect(promote.status).toBe(200);
    const stepDown = await auth(
      '/organization/update-member-role',
      { memberId: ownerMember, role: 'member', organizationId: owner.organizationId },
      owner.cookie,
    );
    expect(stepDown.status).toBe(200);
    // Now the mate is the last owner: the former owner (a member now) cannot touch them, nor can they leave.
    const last = await auth(
      '/organization/update-member-role',
      { memberId: mate.memberId, role: 'member', organizationId: owner.organizationId },
      mate.cookie,
    );
    expect(last.status).toBe(400);
    expect(last.json.code).toMatch(/OWNER/);
    expect((await auth('/organization/leave', { organizationId: owner.organizationId }, mate.cookie)).status).toBe(400);
  });

  it('keeps an owner when two owners demote each other at the same moment: one change is refused', async () => {
    for (let round = 0; round < 3; round += 1) {
      const owner = await signUp(t);
      const mate = await join(owner, 'owner');
      const ownerMember = await memberId(owner);
      const demote = (memberId: string, cookie: string) =>
        auth(
          '/organization/update-member-role',
          { memberId, role: 'member', organizationId: owner.organizationId },
          cookie,
        );
      const answers = await Promise.all([demote(mate.memberId, owner.cookie), demote(ownerMember, mate.cookie)]);
      // Either both passed better-auth's permission check and the trigger refused the second change (400
      // LAST_OWNER), or the first change committed before the second was checked, whose sender was then no longer
      // an owner (403). Never both changes.
      const refused = answers.find((a) => a.status !== 200);
      expect(answers.map((a) => a.status).sort()).toEqual([200, refused?.status === 403 ? 403 : 400]);
      expect(refused?.json).toMatchObject({
        code: refused?.status === 403 ? 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER' : 'LAST_OWNER',
      });
      expect((await orgMembers(owner)).filter((m) => m.role === 'owner')).toHaveLength(1);
    }
  });

  it('is held by PostgreSQL too: of two uncommitted demotions, the second waits and is refused', async () => {
    const owner = await signUp(t);
    const mate = await join(owner, 'owner');
    const ownerMember = await memberId(owner);
    const first = await t.runtime.pool.connect();
    const second = await t.runtime.pool.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      await first.query(`UPDATE "member" SET role = 'admin' WHERE id = $1`, [ownerMember]);
      // Blocks on the organization's row lock, taken by the first transaction's trigger.
      const waiting = second.query(`UPDATE "member" SET role = 'admin' WHERE id = $1`, [mate.memberId]).then(
        () => null,
        (err: { constraint?: string }) => err,
      );
      await first.query('COMMIT');
      expect(await waiting).toMatchObject({ code: '23514', constraint: 'member_keeps_an_owner' });
      await second.query('ROLLBACK');
      // A delete of the last owner is refused the same way; removing every member (a solo account's deletion) is not.
      await expect(second.query('DELETE FROM "member" WHERE id = $1', [mate.memberId])).rejects.toMatchObject({
        constraint: 'member_keeps_an_owner',
      });
    } finally {
      first.release();
      second.release();
    }
    expect((await orgMembers(owner)).map((m) => m.role).sort()).toEqual(['admin', 'owner']);
    const solo = await signUp(t);
    await t.runtime.pool.query('DELETE FROM "member" WHERE "organizationId" = $1', [solo.organizationId]);
    expect(
      (await t.runtime.pool.query('SELECT 1 FROM "member" WHERE "organizationId" = $1', [solo.organizationId]))
        .rowCount,
    ).toBe(0);
  });

  it('refuses a forbidden removal with a 403 and its true reason; owners remove owners', async () => {
    const owner = await signUp(t);
    const admin = await join(owner, 'admin');
    const member = await join(owner, 'member');
    const second = await join(owner, 'owner');
    const remove = (memberIdOrEmail: string, by: TestUser) =>
      auth('/organization/remove-member', { memberIdOrEmail, organizationId: owner.organizationId }, by.cookie);

    // A member removing an admin: forbidden (not "signed out").
    const byMember = await remove(admin.memberId, member);
    expect(byMember.status).toBe(403);
    expect(byMember.json).toMatchObject({
      code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER',
      message: expect.stringMatching(/^Only owners and admins remove members/),
    });
    // An admin removing one of two owners: forbidden, for that reason (not "the only owner").
    const byAdmin = await remove(second.memberId, admin);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.json).toMatchObject({ message: 'Only an owner can remove an owner.' });
    // A member of another organization, by id, is not found here.
    const stranger = await signUp(t);
    const elsewhere = await remove(await memberId(stranger), owner);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.code).toBe('MEMBER_NOT_FOUND');
    // An owner removes another owner; the last one stays.
    expect((await remove(second.memberId, owner)).status).toBe(200);
    const last = await remove(await memberId(owner), owner);
    expect(last.status).toBe(400);
    expect(last.json.code).toBe('LAST_OWNER');
    expect((await orgMembers(owner)).map((m) => m.role).sort()).toEqual(['admin', 'member', 'owner']);
  });

  it('lets an owner remove a member, and a member leave', async () => {
    const owner = await signUp(t);
    const a = await join(owner);
    const b = await join(owner);
    const removed = await auth(
      '/organization/remove-member',
      { memberIdOrEmail: a.memberId, organizationId: owner.organizationId },
      owner.cookie,
    );
    expect(removed.status).toBe(200);
    expect((await auth('/organization/leave', { organizationId: owner.organizationId }, b.cookie)).status).toBe(200);
    expect((await orgMembers(owner)).map((m) => m.userId)).toEqual([owner.userId]);
    // The removed member's session falls back to their own organization.
    const { body } = await gql(t, '{ viewer { organization { id } } }', {}, { cookie: a.cookie });
    expect(body.data.viewer.organization.id).toBe(a.organizationId);
  });
});

async function orgMembers(user: TestUser) {
  const { body } = await gql(t, '{ members { userId role } }', {}, { cookie: user.cookie });
  return body.data.members as { userId: string; role: string }[];
}

describe('organizations made in the app', () => {
  it('creates an organization on DEFAULT_PLAN whatever the client sends, owned by its creator, active', async () => {
    const user = await signUp(t);
    const slug = `agency-${uniq()}`;
    const res = await auth('/organization/create', { name: '  Agency  ', slug, plan: 'ENTERPRISE' }, user.cookie);
    expect(res.status).toBeLessThan(500);
    if (res.status === 200) expect(await orgPlan(res.json.id)).toEqual({ plan: 'PRO', slug, name: 'Agency' });
    const created = await auth('/organization/create', { name: 'Agency two', slug: `${slug}-2` }, user.cookie);
    expect(created.status).toBe(200);
    expect(await orgPlan(created.json.id)).toEqual({ plan: 'PRO', slug: `${slug}-2`, name: 'Agency two' });
    const viewer = await gql(
      t,
      '{ viewer { role organization { id plan } } }',
      {},
      { cookie: sessionCookieOr(created, user) },
    );
    expect(viewer.body.data.viewer).toEqual({ role: 'owner', organization: { id: created.json.id, plan: 'PRO' } });
  });

  it('refuses a bad or taken slug and an empty name with a 400', async () => {
    const user = await signUp(t);
    const slug = `taken-${uniq()}`;
    expect((await auth('/organization/create', { name: 'First', slug }, user.cookie)).status).toBe(200);
    for (const body of [
      { name: 'Second', slug },
      { name: 'Bad', slug: 'Has Spaces' },
      { name: 'Bad', slug: '-dash-' },
      { name: 'Bad', slug: 'a' },
      { name: '   ', slug: `ok-${uniq()}` },
    ]) {
      const res = await auth('/organization/create', body, user.cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toBeTruthy();
    }
  });

  it('updates the name and slug (validated), never the plan', async () => {
    const owner = await signUp(t);
    const slug = `renamed-${uniq()}`;
    const ok = await auth(
      '/organization/update',
      { organizationId: owner.organizationId, data: { name: 'Renamed', slug } },
      owner.cookie,
    );
    expect(ok.status).toBe(200);
    expect(await orgPlan(owner.organizationId)).toEqual({ plan: 'PRO', slug, name: 'Renamed' });
    const bad = await auth(
      '/organization/update',
      { organizationId: owner.organizationId, data: { slug: 'NOT OK' } },
      owner.cookie,
    );
    expect(bad.status).toBe(400);
    const plan = await auth(
      '/organization/update',
      { organizationId: owner.organizationId, data: { plan: 'ENTERPRISE' } },
      owner.cookie,
    );
    expect(plan.status).toBe(400);
    expect(plan.json.code).toMatch(/^(PLAN_NOT_EDITABLE|NOTHING_TO_UPDATE)$/);
    const withName = await auth(
      '/organization/update',
      { organizationId: owner.organizationId, data: { name: 'Renamed again', plan: 'ENTERPRISE' } },
      owner.cookie,
    );
    expect(withName.status).toBeLessThan(500);
    expect((await orgPlan(owner.organizationId))?.plan).toBe('PRO');
    // A member cannot rename it; deleting an organization is not offered.
    const member = await join(owner);
    const byMember = await auth(
      '/organization/update',
      { organizationId: owner.organizationId, data: { name: 'Mine now' } },
      member.cookie,
    );
    expect(byMember.status).toBe(403);
    const del = await auth('/organization/delete', { organizationId: owner.organizationId }, owner.cookie);
    expect(del.status).toBeGreaterThanOrEqual(400);
    expect(await orgPlan(owner.organizationId)).toBeDefined();
  });

  it('keeps tenants apart: no change to another organization’s members or invitations', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const bMember = await memberId(b);
    const invitation = await invite(b, `iso-${uniq()}@example.test`);
    const attempts = [
      auth('/organization/update-member-role', { memberId: bMember, role: 'member' }, a.cookie),
      auth(
        '/organization/update-member-role',
        { memberId: bMember, role: 'member', organizationId: b.organizationId },
        a.cookie,
      ),
      auth('/organization/remove-member', { memberIdOrEmail: bMember }, a.cookie),
      auth('/organization/remove-member', { memberIdOrEmail: b.email, organizationId: b.organizationId }, a.cookie),
      auth('/organization/cancel-invitation', { invitationId: invitation.id }, a.cookie),
      auth(
        '/organization/invite-member',
        { email: `x-${uniq()}@example.test`, role: 'member', organizationId: b.organizationId },
        a.cookie,
      ),
      auth('/organization/update', { organizationId: b.organizationId, data: { name: 'Taken' } }, a.cookie),
      auth('/organization/set-active', { organizationId: b.organizationId }, a.cookie),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect((await orgMembers(b)).map((m) => m.role)).toEqual(['owner']);
    const { rows } = await t.runtime.pool.query('SELECT status FROM "invitation" WHERE id = $1', [invitation.id]);
    expect(rows[0].status).toBe('pending');
    expect((await orgPlan(b.organizationId))?.name).not.toBe('Taken');
  });
});

/** A create that switched the active organization may re-issue the cookie; otherwise the user's cookie holds. */
function sessionCookieOr(res: Awaited<ReturnType<typeof auth>>, user: TestUser): string {
  try {
    return sessionCookie(res.res);
  } catch {
    return user.cookie;
  }
}

describe('account deletion', () => {
  it('is refused while the user is the only owner of an organization with other members, naming it', async () => {
    const owner = await signUp(t);
    await t.runtime.pool.query('UPDATE "organization" SET name = $1 WHERE id = $2', [
      'Shared Co',
      owner.organizationId,
    ]);
    await join(owner);
    const res = await auth('/delete-user', { password: 'correct-horse-battery' }, owner.cookie);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('SOLE_OWNER');
    expect(res.json.message).toContain('“Shared Co”');
    const { rows } = await t.runtime.pool.query('SELECT 1 FROM "user" WHERE id = $1', [owner.userId]);
    expect(rows).toHaveLength(1);
  });

  it('deletes the user and the organizations they were alone in, with their projects; leaves shared ones', async () => {
    const host = await signUp(t);
    const user = await signUp(t);
    const project = await createProject(t, user, `https://solo-${uniq()}.example.com/`);
    // The user also belongs to the host's organization, as a member.
    const invitation = await invite(host, user.email);
    await confirmAddress(user);
    expect((await auth('/organization/accept-invitation', { invitationId: invitation.id }, user.cookie)).status).toBe(
      200,
    );

    expect((await auth('/delete-user', { password: 'wrong-password-1' }, user.cookie)).status).toBe(400);
    const res = await auth('/delete-user', { password: 'correct-horse-battery' }, user.cookie);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const q = (sql: string, id: string) => t.runtime.pool.query(sql, [id]).then((r) => r.rowCount);
    expect(await q('SELECT 1 FROM "user" WHERE id = $1', user.userId)).toBe(0);
    expect(await q('SELECT 1 FROM "organization" WHERE id = $1', user.organizationId)).toBe(0);
    expect(await q('SELECT 1 FROM project WHERE id = $1', project.id)).toBe(0);
    expect(await q('SELECT 1 FROM "organization" WHERE id = $1', host.organizationId)).toBe(1);
    expect((await orgMembers(host)).map((m) => m.userId)).toEqual([host.userId]);
  });
});

describe('passwords', () => {
  it('resets a forgotten password through the link in the e-mail; old sessions end', async () => {
    const user = await signUp(t);
    const before = smtp.messages.length;
    const asked = await auth('/request-password-reset', { email: user.email, redirectTo: '/reset-password' });
    expect(asked.status).toBe(200);
    const mail = parseMail((await smtp.waitFor(user.email, 10_000, before)).raw);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.html).toContain('Choose a new password');
    const link = linkIn(mail, `${t.config.baseUrl}/reset-password?token=`);
    const token = new URL(link).searchParams.get('token')!;
    const reset = await auth('/reset-password', { token, newPassword: 'a-brand-new-password' });
    expect(reset.status).toBe(200);
    // Used once.
    expect((await auth('/reset-password', { token, newPassword: 'another-new-password' })).status).toBe(400);
    expect((await gql(t, '{ viewer { userId } }', {}, { cookie: user.cookie })).body.errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await auth('/sign-in/email', { email: user.email, password: 'correct-horse-battery' })).status).toBe(401);
    expect((await auth('/sign-in/email', { email: user.email, password: 'a-brand-new-password' })).status).toBe(200);
    // Neither the token nor the SMTP password reaches the log.
    const log = t.logs.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain('smtp-secret-pass');
  });

  it('answers the same for an unknown address, and sends nothing', async () => {
    const email = `nobody-${uniq()}@example.test`;
    const res = await auth('/request-password-reset', { email, redirectTo: '/reset-password' });
    expect(res.status).toBe(200);
    await expect(smtp.waitFor(email, 500)).rejects.toThrow(/no message/);
  });

  it('changes the password with the current one, optionally ending the other sessions', async () => {
    const user = await signUp(t);
    const second = sessionCookie(
      (await auth('/sign-in/email', { email: user.email, password: 'correct-horse-battery' })).res,
    );
    const wrong = await auth(
      '/change-password',
      { currentPassword: 'not-the-password', newPassword: 'next-password-1' },
      user.cookie,
    );
    expect(wrong.status).toBe(400);
    const ok = await auth(
      '/change-password',
      { currentPassword: 'correct-horse-battery', newPassword: 'next-password-1', revokeOtherSessions: true },
      user.cookie,
    );
    expect(ok.status).toBe(200);
    const current = sessionCookieOr(ok, user);
    expect((await gql(t, '{ viewer { userId } }', {}, { cookie: current })).body.data?.viewer.userId).toBe(user.userId);
    expect((await gql(t, '{ viewer { userId } }', {}, { cookie: second })).body.errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('lists the sessions and signs out everywhere else', async () => {
    const user = await signUp(t);
    const other = sessionCookie(
      (await auth('/sign-in/email', { email: user.email, password: 'correct-horse-battery' })).res,
    );
    const list = await auth('/list-sessions', undefined, user.cookie, 'GET');
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(2);
    expect(Object.keys(list.json[0])).not.toContain('password');
    expect((await auth('/revoke-other-sessions', {}, user.cookie)).status).toBe(200);
    expect((await auth('/list-sessions', undefined, user.cookie, 'GET')).json).toHaveLength(1);
    expect((await gql(t, '{ viewer { userId } }', {}, { cookie: other })).body.errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('changes the e-mail address only once the new address confirms it', async () => {
    const user = await signUp(t);
    const next = `moved-${uniq()}@example.test`;
    const before = smtp.messages.length;
    const res = await auth('/change-email', { newEmail: next, callbackURL: '/account' }, user.cookie);
    expect(res.status).toBe(200);
    const { rows } = await t.runtime.pool.query('SELECT email FROM "user" WHERE id = $1', [user.userId]);
    expect(rows[0].email).toBe(user.email);
    const mail = parseMail((await smtp.waitFor(next, 10_000, before)).raw);
    const link = linkIn(mail, `${t.config.baseUrl}/api/auth/verify-email?token=`);
    const confirmed = await t.app.inject({ method: 'GET', url: link.slice(t.config.baseUrl.length) });
    expect(confirmed.statusCode).toBeLessThan(400);
    const after = await t.runtime.pool.query('SELECT email FROM "user" WHERE id = $1', [user.userId]);
    expect(after.rows[0].email).toBe(next);
  });
});

describe('without SMTP_URL', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ DEFAULT_PLAN: 'PRO' });
  });
  afterAll(async () => {
    await bare?.close();
  });
  const call = async (path: string, body: unknown, cookie?: string, method: 'GET' | 'POST' = 'POST') => {
    const res = await bare.app.inject({
      method,
      url: `/api/auth${path}`,
      headers: { origin: bare.config.baseUrl, ...(cookie ? { cookie } : {}) },
      ...(method === 'POST' ? { payload: body as Record<string, unknown> } : {}),
    });
    return { status: res.statusCode, json: res.body ? JSON.parse(res.body) : null, text: res.body };
  };
  const inviteBare = async (owner: TestUser, email: string, role: string, extra: Record<string, unknown> = {}) => {
    const res = await call(
      '/organization/invite-member',
      { email, role, organizationId: owner.organizationId, ...extra },
      owner.cookie,
    );
    expect(res.status, res.text).toBe(200);
    return res.json as { id: string; link: string };
  };
  /** A member of the owner's organization, joined through the link. */
  const joinBare = async (owner: TestUser, role: string) => {
    const email = `bare-${uniq()}@example.test`;
    const { id, link } = await inviteBare(owner, email, role);
    const user = await signUp(bare, { email });
    const res = await call(
      '/organization/accept-invitation',
      { invitationId: id, secret: secretOf(link) },
      user.cookie,
    );
    expect(res.status, res.text).toBe(200);
    return user;
  };

  it('sends nothing, says so (mailEnabled), and still records the invitation for its link', async () => {
    const owner = await signUp(bare);
    const flag = await gql(bare, '{ mailEnabled }');
    expect(flag.body.data).toEqual({ mailEnabled: false });
    const email = `nomail-${uniq()}@example.test`;
    const before = smtp.messages.length;
    const invitation = await inviteBare(owner, email, 'member');
    expect(invitation.link).toMatch(new RegExp(`/invitations/${invitation.id}#[A-Za-z0-9_-]{43}$`));
    const reset = await call('/request-password-reset', { email: owner.email, redirectTo: '/reset-password' });
    expect(reset.status).toBe(200);
    expect(smtp.messages.length).toBe(before);
    expect((await gql(t, '{ mailEnabled }')).body.data).toEqual({ mailEnabled: true });
  });

  it('the drill: a member who lists invitations and signs up as an owner invitee cannot accept', async () => {
    const owner = await signUp(bare);
    const member = await joinBare(owner, 'member');
    const target = `boss-${uniq()}@example.test`;
    const invitation = await inviteBare(owner, target, 'owner');

    // The member's list: who is invited, as what, until when; no id, no secret, no link.
    const listed = await call(
      `/organization/list-invitations?organizationId=${owner.organizationId}`,
      undefined,
      member.cookie,
      'GET',
    );
    expect(listed.status).toBe(200);
    const pending = listed.json.filter((i: { status: string }) => i.status === 'pending');
    expect(pending).toEqual([expect.objectContaining({ email: target, role: 'owner' })]);
    for (const entry of listed.json) expect(entry).not.toHaveProperty('id');
    expect(listed.text).not.toContain(invitation.id);
    expect(listed.text).not.toContain(secretOf(invitation.link));
    // The owner sees the id (to revoke or renew it), never the secret.
    const ownersList = await call(
      `/organization/list-invitations?organizationId=${owner.organizationId}`,
      undefined,
      owner.cookie,
      'GET',
    );
    expect(ownersList.json).toContainEqual(expect.objectContaining({ id: invitation.id, email: target }));
    expect(ownersList.text).not.toContain(secretOf(invitation.link));

    // The member signs up as the invited address (nothing checks it without mail) and tries everything it has:
    // the id (as the earlier list gave it), a guessed secret, the id as the secret.
    const squatter = await signUp(bare, { email: target });
    const attempts = [
      { invitationId: invitation.id },
      { invitationId: invitation.id, secret: 'x'.repeat(43) },
      { invitationId: invitation.id, secret: invitation.id },
    ];
    for (const body of attempts) {
      const res = await call('/organization/accept-invitation', body, squatter.cookie);
      expect(res.status, res.text).toBe(403);
      expect(res.json.code).toMatch(/^(INVITATION_SECRET_REQUIRED|INVALID_INVITATION_SECRET)$/);
    }
    const read = await call(`/organization/get-invitation?id=${invitation.id}`, undefined, squatter.cookie, 'GET');
    expect(read.status).toBe(403);
    expect((await call('/organization/reject-invitation', attempts[0], squatter.cookie)).status).toBe(403);
    const roles = await bare.runtime.pool.query(
      'SELECT m.role FROM "member" m WHERE m."organizationId" = $1 AND m."userId" = $2',
      [owner.organizationId, squatter.userId],
    );
    expect(roles.rows).toEqual([]);
    const status = await bare.runtime.pool.query('SELECT status FROM "invitation" WHERE id = $1', [invitation.id]);
    expect(status.rows[0].status).toBe('pending');
  });

  it('accepts with the link’s secret, as the invitee only, without switching the active organization', async () => {
    const owner = await signUp(bare);
    const email = `linked-${uniq()}@example.test`;
    const first = await inviteBare(owner, email, 'admin');
    // Renewing the invitation gives it a new secret: the first link stops working.
    const renewed = await inviteBare(owner, email, 'admin', { resend: true });
    expect(renewed.id).toBe(first.id);
    expect(secretOf(renewed.link)).not.toBe(secretOf(first.link));
    const stranger = await signUp(bare);
    const strangers = await call(
      '/organization/accept-invitation',
      { invitationId: renewed.id, secret: secretOf(renewed.link) },
      stranger.cookie,
    );
    expect(strangers.status).toBe(403);
    expect(strangers.json.code).toBe('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION');

    const invitee = await signUp(bare, { email });
    const old = await call(
      '/organization/accept-invitation',
      { invitationId: first.id, secret: secretOf(first.link) },
      invitee.cookie,
    );
    expect(old.status).toBe(403);
    expect(old.json.code).toBe('INVALID_INVITATION_SECRET');
    const read = await call(
      `/organization/get-invitation?id=${renewed.id}&secret=${secretOf(renewed.link)}`,
      undefined,
      invitee.cookie,
      'GET',
    );
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ organizationId: owner.organizationId, role: 'admin' });
    const accepted = await call(
      '/organization/accept-invitation',
      { invitationId: renewed.id, secret: secretOf(renewed.link) },
      invitee.cookie,
    );
    expect(accepted.status).toBe(200);
    expect(accepted.json.member).toMatchObject({ organizationId: owner.organizationId, role: 'admin' });
    // Still in their own organization until they switch.
    const viewer = await gql(bare, '{ viewer { organization { id } } }', {}, { cookie: invitee.cookie });
    expect(viewer.body.data.viewer.organization.id).toBe(invitee.organizationId);
    const session = await call('/get-session', undefined, invitee.cookie, 'GET');
    expect(session.json.session.activeOrganizationId).toBe(invitee.organizationId);
  });
});
