import type pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { createMailer, type Mailer } from '../platform/mail.js';
import { IdentityRepository } from './identity.repository.js';
import {
  INVITATION_EXPIRES_IN_SEC,
  RESET_PASSWORD_EXPIRES_IN_SEC,
  TeamRuleError,
  TeamRules,
  changeEmailMail,
  checkOrganizationFields,
  invitationMail,
  ownerConstraintRefusal,
  resetPasswordMail,
  type AccountDeletionPlan,
} from './team-rules.js';

/** The session cookie name is part of the contract (spec §5 B.1). */
export const SESSION_COOKIE = 'better-auth.session-token';
/** A session lasts a week; a session read when more than a day old is extended (better-auth's updateAge). */
export const SESSION_EXPIRES_IN_SEC = 60 * 60 * 24 * 7;
export const SESSION_UPDATE_AGE_SEC = 60 * 60 * 24;

function slugify(text: string): string {
  const base = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'org'}-${randomBytes(4).toString('hex')}`;
}

/**
 * Inserts an organization and its owner in one transaction; used by sign-up (personal organization)
 * and by the admin CLI. Plans are set here, server-side only.
 */
export async function insertOrganization(
  pool: pg.Pool,
  input: { name: string; ownerUserId: string; plan: string },
  repo = new IdentityRepository(),
): Promise<{ id: string; slug: string }> {
  const id = randomBytes(16).toString('hex');
  const slug = slugify(input.name);
  await repo.insertOrganizationWithOwner(
    pool,
    { id, name: input.name, slug, plan: input.plan },
    { memberId: randomBytes(16).toString('hex'), userId: input.ownerUserId },
  );
  return { id, slug };
}

interface AuthLibrary {
  betterAuth: (typeof import('better-auth'))['betterAuth'];
  getCurrentAdapter: (typeof import('better-auth'))['getCurrentAdapter'];
  organization: (typeof import('better-auth/plugins'))['organization'];
  APIError: (typeof import('better-auth/api'))['APIError'];
}

type DbAdapter = Parameters<AuthLibrary['getCurrentAdapter']>[0];

/**
 * Gives a user without an organization their personal one (owner), through `adapter`: called when a session is
 * created, i.e. inside the sign-up transaction (user, account, organization, membership and session commit or roll
 * back together), and at sign-in, which repairs an account an interrupted sign-up of an earlier version left
 * without its organization. Returns the organization to make active, or null when the user already has one.
 */
async function ensurePersonalOrganization(
  adapter: DbAdapter,
  userId: string,
  plan: string,
): Promise<{ id: string } | null> {
  const membership = await adapter.findOne<{ id: string }>({
    model: 'member',
    where: [{ field: 'userId', value: userId }],
    select: ['id'],
  });
  if (membership) return null;
  const user = await adapter.findOne<{ name: string | null; email: string }>({
    model: 'user',
    where: [{ field: 'id', value: userId }],
    select: ['name', 'email'],
  });
  if (!user) return null;
  const name = `${user.name || user.email.split('@')[0]}'s organization`;
  const id = randomBytes(16).toString('hex');
  const now = new Date();
  await adapter.create({
    model: 'organization',
    data: { id, name, slug: slugify(name), plan, createdAt: now },
    forceAllowId: true,
  });
  await adapter.create({
    model: 'member',
    data: { id: randomBytes(16).toString('hex'), organizationId: id, userId, role: 'owner', createdAt: now },
    forceAllowId: true,
  });
  return { id };
}

/**
 * better-auth is loaded when an auth instance is made (API and CLI), so that processes which only import
 * this module's neighbours, such as the workers, do not carry it (~20 MB of RSS).
 */
export async function createAuth(
  config: AppConfig,
  pool: pg.Pool,
  logger?: Logger,
  mailer: Mailer = createMailer(config, logger),
): Promise<Auth> {
  const [{ betterAuth, getCurrentAdapter }, { organization }, { APIError }] = await Promise.all([
    import('better-auth'),
    import('better-auth/plugins'),
    import('better-auth/api'),
  ]);
  return buildAuth({ betterAuth, getCurrentAdapter, organization, APIError }, config, pool, logger, mailer);
}

function buildAuth(
  { betterAuth, getCurrentAdapter, organization, APIError }: AuthLibrary,
  config: AppConfig,
  pool: pg.Pool,
  logger?: Logger,
  mailer: Mailer = createMailer(config, logger),
) {
  const secure = config.baseUrl.startsWith('https://');
  const rules = new TeamRules(pool);
  /** Runs a team rule; its refusal becomes better-auth's 400 with the rule's code and message. */
  const enforce = async <T>(rule: () => Promise<T> | T): Promise<T> => {
    try {
      return await rule();
    } catch (err) {
      if (err instanceof TeamRuleError) throw new APIError('BAD_REQUEST', { code: err.code, message: err.message });
      throw err;
    }
  };
  /** Account deletions between better-auth's beforeDelete and afterDelete hooks, by user id. */
  const deletions = new Map<string, AccountDeletionPlan>();
  return betterAuth({
    appName: 'SEO Audit Platform',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: pool,
    trustedOrigins: config.trustedOrigins,
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      // The link opens the app's page (not better-auth's redirecting endpoint); the token is redacted from logs.
      resetPasswordTokenExpiresIn: RESET_PASSWORD_EXPIRES_IN_SEC,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        if (!mailer.enabled) {
          logger?.warn({ component: 'mail', userId: user.id }, 'password reset asked for, but SMTP_URL is unset');
          return;
        }
        const url = `${config.baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await mailer.send(resetPasswordMail({ to: user.email, url }));
      },
    },
    // A new e-mail address is used once its owner opens the link sent to it, so only with mail configured.
    ...(mailer.enabled && {
      emailVerification: {
        sendVerificationEmail: async ({ user, url }) => mailer.send(changeEmailMail({ to: user.email, url })),
      },
    }),
    user: {
      changeEmail: { enabled: mailer.enabled },
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => {
          deletions.set(user.id, await enforce(() => rules.planAccountDeletion(user.id)));
        },
        afterDelete: async (user) => {
          const plan = deletions.get(user.id);
          deletions.delete(user.id);
          if (plan) await rules.deleteSoloOrganizations(user.id, plan);
        },
      },
    },
    onAPIError: {
      // Called with every error an endpoint throws; what it throws becomes the response. The trigger that keeps an
      // owner (team-rules) refuses the loser of a race as the before-hook would have, never as a 500.
      onError(error) {
        const refusal = ownerConstraintRefusal(error);
        if (refusal) throw new APIError('BAD_REQUEST', { code: refusal.code, message: refusal.message });
        const status = (error as { status?: unknown } | null)?.status;
        // better-auth's refusals (400s, 401s…) are answers, not faults; anything else is logged as it would be.
        if (error instanceof APIError && status !== 'INTERNAL_SERVER_ERROR') return;
        logger?.error({ component: 'better-auth', err: error }, 'auth endpoint failed');
      },
    },
    // Brute-force protection is ours (Redis-backed, shared by every API process), not better-auth's in-memory one.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // better-auth's own messages go to our structured log (never to stdout on their own).
    logger: {
      level: 'warn',
      log: (level, message) => logger?.[level]({ component: 'better-auth' }, message),
    },
    // Sessions live in the database only: no cookie cache, no secondary storage. principalFromSessionCookie
    // (session-principal.ts) reads them directly on that basis, and defers to getSession for expiry and refresh.
    session: { expiresIn: SESSION_EXPIRES_IN_SEC, updateAge: SESSION_UPDATE_AGE_SEC },
    advanced: {
      useSecureCookies: false,
      // Stated explicitly: NODE_ENV=test would otherwise switch these checks off silently.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      cookies: {
        session_token: {
          name: SESSION_COOKIE,
          attributes: { secure, httpOnly: true, sameSite: 'lax', path: '/' },
        },
      },
    },
    plugins: [
      organization({
        allowUserToCreateOrganization: true,
        creatorRole: 'owner',
        // Deleting an organization deletes its projects: not offered (an account's own organization goes with it).
        disableOrganizationDeletion: true,
        invitationExpiresIn: INVITATION_EXPIRES_IN_SEC,
        cancelPendingInvitationsOnReInvite: true,
        // Without SMTP nothing is sent: the inviter copies the link the app shows (README, Configuration).
        sendInvitationEmail: async ({ id, email, role, organization: org, invitation, inviter }) => {
          if (!mailer.enabled) return;
          const url = `${config.baseUrl}/invitations/${encodeURIComponent(id)}`;
          await mailer.send(
            invitationMail({
              to: email,
              organizationName: org.name,
              inviterName: inviter.user.name,
              inviterEmail: inviter.user.email,
              role,
              url,
              expiresAt: new Date(invitation.expiresAt),
            }),
          );
        },
        // The rules better-auth does not know, on every path its endpoints offer (create, update, invite,
        // role change, removal; leaving as the last owner better-auth refuses itself).
        organizationHooks: {
          // The plan of a new organization is DEFAULT_PLAN, set here: never the client's.
          beforeCreateOrganization: async ({ organization: org }) =>
            enforce(() => ({ data: { ...org, ...checkOrganizationFields(org, true), plan: config.DEFAULT_PLAN } })),
          beforeUpdateOrganization: async ({ organization: org }) =>
            enforce(() => {
              // better-auth merges what this returns into the request's data: a plan is refused, not dropped.
              if ('plan' in org)
                throw new TeamRuleError('PLAN_NOT_EDITABLE', 'The plan is set by the platform, not through this API.');
              const data = { ...org, ...checkOrganizationFields(org, false) };
              // An empty change (a plan alone is dropped by better-auth's input schema) would be a bad UPDATE.
              if (!Object.values(data).some((v) => v !== undefined))
                throw new TeamRuleError('NOTHING_TO_UPDATE', 'Give a name or a slug to change.');
              return { data };
            }),
          beforeCreateInvitation: async ({ invitation }) => enforce(() => void rules.checkRole(invitation.role)),
          beforeUpdateMemberRole: async ({ member, newRole }) =>
            enforce(async () => rules.assertKeepsAnOwner(member, rules.checkRole(newRole))),
          beforeRemoveMember: async ({ member }) => enforce(() => rules.assertKeepsAnOwner(member, null)),
        },
        schema: {
          organization: {
            additionalFields: {
              plan: { type: 'string', input: false, required: false, defaultValue: config.DEFAULT_PLAN },
            },
          },
        },
      }),
    ],
    databaseHooks: {
      session: {
        create: {
          // Sign-up creates its session inside its transaction: the personal organization is made there too.
          before: async (session, ctx) => {
            if (!ctx) return;
            const adapter = await getCurrentAdapter(ctx.context.adapter);
            const created = await ensurePersonalOrganization(adapter, session.userId, config.DEFAULT_PLAN);
            return created ? { data: { ...session, activeOrganizationId: created.id } } : undefined;
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof buildAuth>;
