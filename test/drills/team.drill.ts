/**
 * Team: what a member of an organization can do to the organization from outside, through /api/auth as the web app
 * calls it, against built API processes. Sections (SECTIONS below; each adds its figures under its name, and a new
 * one is one more entry):
 * - invitations: an owner invites a fresh address as owner, admin or member; a member lists the invitations, signs
 *   up as the invited address and tries to accept, read and decline the invitation with everything it saw (and with
 *   the real id, as if it had leaked, plus guessed, reused and empty secrets). Holds when 0 attempts succeed, the
 *   squatter never becomes a member (0 escalations), members' lists carry no id or secret, an expired invitation is
 *   listed as expired, and the invitee, with the link (and a confirmed address when mail is configured), joins
 *   without their active organization switching. Run without mail, and (full form) with SMTP_URL set too.
 * - codes: refused team actions answer 403 with their true reason (never a 401, which reads "signed out"); owners
 *   remove owners while one stays.
 * - crawl logins (team-credentials.ts, on a platform of its own with an audit worker and canary hosts): a member
 *   points a project with the owner's crawl login elsewhere (another host, subdomains, a wider scope) and starts
 *   audits; holds when the canaries receive 0 credentials.
 */
import { randomBytes } from 'node:crypto';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';
import { apiClient, keepLogs, signUp, type Account, type ApiClient, type HttpAnswer } from './drill-http.js';
import { teamCredentialsSetup } from './team-credentials.js';

const PASSWORD = 'correct-horse-battery';
const ROLES = ['owner', 'admin', 'member'] as const;

/** What a section gets: one running platform, its client, and the drill's expectations and figures. */
interface SectionContext {
  platform: Platform;
  api: ApiClient;
  /** Whether this platform sends mail (SMTP_URL set). */
  mail: boolean;
  quick: boolean;
  log(line: string): void;
  expect(condition: boolean, message: string): boolean;
  /** This section's figures (under its name, and the platform's configuration). */
  figures: Record<string, unknown>;
  /** Secrets the section planted, for the secrets drill's search of the logs. */
  plant(what: string, value: string): void;
}

interface Section {
  name: string;
  /** Whether the section runs against the platform with mail configured too (full form). */
  withMail: boolean;
  run(ctx: SectionContext): Promise<void>;
}

const uniq = () => randomBytes(5).toString('hex');
const address = (what: string) => `${what}-${uniq()}@example.test`;
const auth = (api: ApiClient, path: string, cookie: string, body?: unknown) =>
  api.request(`/api/auth${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie },
    ...(body !== undefined && { body }),
  });
const secretOf = (link: unknown): string => (typeof link === 'string' ? new URL(link).hash.slice(1) : '');

/** The owner invites `email` as `role`: the invitation's id and the link the owner is given. */
async function invite(ctx: SectionContext, owner: Account, email: string, role: string) {
  const res = await auth(ctx.api, '/organization/invite-member', owner.cookie, {
    email,
    role,
    organizationId: owner.organizationId,
  });
  if (res.status !== 200) throw new Error(`invite failed ${res.status}: ${res.text}`);
  ctx.plant('invitation secret', secretOf(res.json.link));
  return { id: res.json.id as string, link: res.json.link as string };
}

/** A new account joins the owner's organization as `role` the way an invitee does (link, confirmed address). */
async function join(ctx: SectionContext, owner: Account, role: string): Promise<Account & { memberId: string }> {
  const email = address(`mate-${role}`);
  const { id, link } = await invite(ctx, owner, email, role);
  const user = await signUp(ctx.api, email, PASSWORD);
  // Confirmed as opening the sign-up mail's link does (the invitations section follows the link itself).
  if (ctx.mail) await ctx.platform.sql('UPDATE "user" SET "emailVerified" = true WHERE id = $1', [user.userId]);
  const res = await auth(ctx.api, '/organization/accept-invitation', user.cookie, {
    invitationId: id,
    secret: secretOf(link),
  });
  if (res.status !== 200) throw new Error(`accept failed ${res.status}: ${res.text}`);
  return { ...user, memberId: res.json.member.id as string };
}

/** Every string value in a JSON answer (ids, links…), for the squatter to try. */
function stringsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

const invitations: Section = {
  name: 'invitations',
  withMail: true,
  async run(ctx) {
    const { api, expect, figures, platform } = ctx;
    const rounds = ctx.quick ? 1 : 5;
    const codes: Record<string, number> = {};
    let attempts = 0;
    let accepted = 0;
    let escalations = 0;
    let idsSeenByMembers = 0;
    let secretsSeenByMembers = 0;
    let expiredListedAsExpired = 0;
    let expiredTotal = 0;
    let inviteesJoined = 0;
    let activeOrganizationSwitched = 0;
    for (let round = 0; round < rounds; round++) {
      for (const role of ROLES) {
        const owner = await signUp(api, address('owner'), PASSWORD);
        const member = await join(ctx, owner, 'member');
        const target = address(`target-${role}`);
        const invitation = await invite(ctx, owner, target, role);

        // What the member sees.
        const listed = await auth(
          api,
          `/organization/list-invitations?organizationId=${owner.organizationId}`,
          member.cookie,
        );
        expect(listed.status === 200, `a member's list answered ${listed.status}`);
        const seen = stringsIn(listed.json);
        if (listed.text.includes(invitation.id)) idsSeenByMembers++;
        const secret = secretOf(invitation.link);
        if (secret && listed.text.includes(secret)) secretsSeenByMembers++;

        // The member becomes the invited address (it has no account yet) and tries everything.
        const squatter = await signUp(api, target, PASSWORD);
        const mine = await auth(api, '/organization/list-user-invitations', squatter.cookie);
        for (const s of stringsIn(mine.json)) seen.add(s);
        const ids = [...new Set([invitation.id, ...seen])].filter((s) => /^[A-Za-z0-9_-]{16,64}$/.test(s));
        const secrets: (string | undefined)[] = [
          undefined,
          '',
          randomBytes(32).toString('base64url'),
          invitation.id,
          owner.organizationId,
          ...[...seen].filter((s) => s !== invitation.id).slice(0, 6),
        ];
        const tally = (res: HttpAnswer, what: string) => {
          attempts++;
          const code = String(res.json?.code ?? res.status);
          codes[code] = (codes[code] ?? 0) + 1;
          if (res.status === 200) accepted++;
          expect(res.status === 403 || res.status === 400, `${what} answered ${res.status}: ${res.text.slice(0, 200)}`);
        };
        for (const id of ids)
          for (const secret of secrets) {
            const body = { invitationId: id, ...(secret !== undefined && { secret }) };
            tally(
              await auth(api, '/organization/accept-invitation', squatter.cookie, body),
              `accepting ${role} (${id.slice(0, 6)}…)`,
            );
          }
        const query = `?id=${invitation.id}`;
        tally(await auth(api, `/organization/get-invitation${query}`, squatter.cookie), 'reading the invitation');
        tally(
          await auth(api, '/organization/reject-invitation', squatter.cookie, { invitationId: invitation.id }),
          'declining the invitation',
        );
        // The member itself, with the real id: not its invitation.
        tally(
          await auth(api, '/organization/accept-invitation', member.cookie, { invitationId: invitation.id }),
          "accepting another's invitation",
        );
        const rows = await platform.sql<{ role: string }>(
          'SELECT role FROM "member" WHERE "organizationId" = $1 AND "userId" = $2',
          [owner.organizationId, squatter.userId],
        );
        escalations += rows.length;
        const [state] = await platform.sql<{ status: string }>('SELECT status FROM "invitation" WHERE id = $1', [
          invitation.id,
        ]);
        expect(state?.status === 'pending', `the ${role} invitation is ${state?.status} after the attempts`);

        // An expired invitation is listed as expired (to the owner and to members).
        const stale = await invite(ctx, owner, address('stale'), 'member');
        await platform.sql(`UPDATE "invitation" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [
          stale.id,
        ]);
        for (const viewer of [owner, member]) {
          const list = await auth(
            api,
            `/organization/list-invitations?organizationId=${owner.organizationId}`,
            viewer.cookie,
          );
          const statuses = (list.json as { email: string; status: string }[]).filter((i) => i.status === 'expired');
          expiredTotal++;
          if (statuses.length === 1) expiredListedAsExpired++;
        }

        // The real invitee (once per round): a new invitation to a new address, opened with the link.
        if (role === 'admin') {
          const email = address('invitee');
          const real = await invite(ctx, owner, email, role);
          const invitee = await signUp(api, email, PASSWORD);
          if (ctx.mail) await platform.sql('UPDATE "user" SET "emailVerified" = true WHERE id = $1', [invitee.userId]);
          const res = await auth(api, '/organization/accept-invitation', invitee.cookie, {
            invitationId: real.id,
            secret: secretOf(real.link),
          });
          if (expect(res.status === 200, `the invitee's acceptance answered ${res.status}: ${res.text}`))
            inviteesJoined++;
          const session = await auth(api, '/get-session', invitee.cookie);
          if (session.json?.session?.activeOrganizationId !== invitee.organizationId) activeOrganizationSwitched++;
        }
      }
    }
    expect(accepted === 0, `${accepted} squatting attempts were accepted`);
    expect(escalations === 0, `${escalations} squatters became members`);
    expect(idsSeenByMembers === 0, `members saw the invitation's id in ${idsSeenByMembers} lists`);
    expect(secretsSeenByMembers === 0, `members saw the secret in ${secretsSeenByMembers} lists`);
    expect(expiredListedAsExpired === expiredTotal, `${expiredTotal - expiredListedAsExpired} lists showed no expired`);
    expect(inviteesJoined === rounds, `${inviteesJoined} of ${rounds} invitees joined with their link`);
    expect(
      activeOrganizationSwitched === 0,
      `accepting switched the active organization ${activeOrganizationSwitched}×`,
    );
    Object.assign(figures, {
      invitations: rounds * ROLES.length,
      attempts,
      accepted,
      escalations,
      idsSeenByMembers,
      secretsSeenByMembers,
      refusals: codes,
      expiredListedAsExpired: `${expiredListedAsExpired}/${expiredTotal}`,
      inviteesJoined: `${inviteesJoined}/${rounds}`,
      activeOrganizationSwitched,
    });
  },
};

const codes: Section = {
  name: 'codes',
  withMail: false,
  async run(ctx) {
    const { api, expect, figures } = ctx;
    const owner = await signUp(api, address('owner'), PASSWORD);
    const admin = await join(ctx, owner, 'admin');
    const member = await join(ctx, owner, 'member');
    const second = await join(ctx, owner, 'owner');
    const [{ id: ownerMemberId }] = await ctx.platform.sql<{ id: string }>(
      'SELECT id FROM "member" WHERE "userId" = $1 AND "organizationId" = $2',
      [owner.userId, owner.organizationId],
    );
    const remove = (memberIdOrEmail: string, by: Account) =>
      auth(api, '/organization/remove-member', by.cookie, { memberIdOrEmail, organizationId: owner.organizationId });
    const cases: { what: string; call: () => Promise<HttpAnswer>; status: number; code?: string }[] = [
      { what: 'member removes admin', call: () => remove(admin.memberId, member), status: 403 },
      { what: 'member removes owner', call: () => remove(ownerMemberId, member), status: 403 },
      { what: 'admin removes owner (2 owners)', call: () => remove(second.memberId, admin), status: 403 },
      {
        what: 'admin demotes owner',
        call: () =>
          auth(api, '/organization/update-member-role', admin.cookie, {
            memberId: second.memberId,
            role: 'member',
            organizationId: owner.organizationId,
          }),
        status: 403,
      },
      {
        what: 'member invites',
        call: () =>
          auth(api, '/organization/invite-member', member.cookie, {
            email: address('x'),
            role: 'member',
            organizationId: owner.organizationId,
          }),
        status: 403,
      },
      { what: 'owner removes owner (2 owners)', call: () => remove(second.memberId, owner), status: 200 },
      {
        what: 'owner removes self (last owner)',
        call: () => remove(ownerMemberId, owner),
        status: 400,
        code: 'LAST_OWNER',
      },
      { what: 'admin removes member', call: () => remove(member.memberId, admin), status: 200 },
    ];
    const table: Record<string, string> = {};
    let unauthorized = 0;
    for (const c of cases) {
      const res = await c.call();
      table[c.what] = `${res.status} ${res.json?.code ?? ''}`.trim();
      if (res.status === 401) unauthorized++;
      expect(
        res.status === c.status && (!c.code || res.json?.code === c.code),
        `${c.what}: ${res.status} ${res.text.slice(0, 160)} (expected ${c.status}${c.code ? ` ${c.code}` : ''})`,
      );
      if (res.status >= 400)
        expect(
          !/ONLY_OWNER/.test(String(res.json?.code)) || c.what.includes('last owner'),
          `${c.what}: says "${res.json?.code}"`,
        );
    }
    Object.assign(figures, { cases: table, unauthorizedWhileSignedIn: unauthorized });
  },
};

/** The drill's sections, in order; another section is one more entry. */
const SECTIONS: Section[] = [invitations, codes];

export const drill: Drill = {
  description:
    'team: a member lists invitations, signs up as the invitee and tries to accept → 0 escalations; refused team ' +
    'actions are 403s with their true reason; a member moves a project with a crawl login to canaries → 0 credentials',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const figures: Record<string, unknown> = {};
    const planted: { what: string; value: string }[] = [{ what: 'password', value: PASSWORD }];
    // Without mail (the reported configuration) always; with SMTP_URL too in the full form.
    const configurations: { mail: boolean }[] = quick ? [{ mail: false }] : [{ mail: false }, { mail: true }];
    for (const { mail } of configurations) {
      const sink: SmtpSink | null = mail ? await startSmtpSink() : null;
      const platform = await startPlatform({
        env: {
          LOG_LEVEL: 'warn',
          AUTH_FAILURES_PER_MINUTE: '10000',
          ANONYMOUS_RATE_PER_MINUTE: '10000',
          APP_RATE_PER_MINUTE: '100000',
          ...(sink && { SMTP_URL: `smtp://drill:drill-pass@127.0.0.1:${sink.port}` }),
        },
      });
      const api = apiClient(platform.apis[0].baseUrl);
      try {
        for (const section of SECTIONS) {
          if (mail && !section.withMail) continue;
          const key = mail ? `${section.name} (mail)` : section.name;
          const own: Record<string, unknown> = {};
          const started = Date.now();
          log(`${key}…`);
          await section.run({
            platform,
            api,
            mail,
            quick,
            log,
            expect,
            figures: own,
            plant: (what, value) => value && planted.push({ what, value }),
          });
          own.seconds = (Date.now() - started) / 1000;
          figures[key] = own;
          log(`${key}: ${JSON.stringify(own)}`);
        }
        keepLogs(mail ? 'team-mail' : 'team', platform.logs(), planted);
        if (sink) figures.mailsSent = sink.messages.length;
      } finally {
        await platform.stop();
        await sink?.close();
      }
    }
    // Crawl logins: canaries and the owner's site start before the platform, whose address policy must reach them.
    const credentials = await teamCredentialsSetup();
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: { DEFAULT_PLAN: 'ENTERPRISE', LOG_LEVEL: 'warn', ...credentials.env },
    });
    try {
      log('crawl logins…');
      const own = await credentials.run(platform, { quick, log });
      for (const failure of own.failures) expect(false, failure);
      figures['crawl logins'] = own.figures;
    } finally {
      await platform.stop();
      await credentials.close();
    }
    return result(figures);
  },
};
