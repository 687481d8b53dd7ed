import type pg from 'pg';
import type { BetterAuthOptions } from 'better-auth';
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
  invitationAsListed,
  invitationLink,
  invitationMail,
  ownerConstraintRefusal,
  resetPasswordMail,
  verifyEmailMail,
  type AccountDeletionPlan,
  type ListedInvitation,
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
  createAuthMiddleware: (typeof import('better-auth/api'))['createAuthMiddleware'];
  getSessionFromCtx: (typeof import('better-auth/api'))['getSessionFromCtx'];
}

/** Whether a verification token changes the address (change-email) rather than confirming it (sign-up). */
function changesAddress(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      updateTo?: unknown;
    };
    return typeof payload.updateTo === 'string' && payload.updateTo !== '';
  } catch {
    return false;
  }
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
  const [{ betterAuth, getCurrentAdapter }, { organization }, { APIError, createAuthMiddleware, getSessionFromCtx }] =
    await Promise.all([import('better-auth'), import('better-auth/plugins'), import('better-auth/api')]);
  return buildAuth(
    { betterAuth, getCurrentAdapter, organization, APIError, createAuthMiddleware, getSessionFromCtx },
    config,
    pool,
    logger,
    mailer,
  );
}

/** The paths whose before-hook checks an invitation's secret, and where each request carries it. */
const INVITATION_READS: Record<string, 'body' | 'query'> = {
  '/organization/accept-invitation': 'body',
  '/organization/reject-invitation': 'body',
  '/organization/get-invitation': 'query',
};

/** What the hooks of an auth instance share: its settings, the team rules and the state of requests under way. */
interface AuthContext {
  lib: AuthLibrary;
  config: AppConfig;
  mailer: Mailer;
  logger: Logger | undefined;
  rules: TeamRules;
  /** Runs a team rule; its refusal becomes better-auth's 400 or 403 with the rule's code and message. */
  enforce: <T>(rule: () => Promise<T> | T) => Promise<T>;
  /**
   * The link of each invitation made or renewed by the request under way, by invitation id: sendInvitationEmail
   * (inside better-auth's endpoint) makes it, the after-hook hands it to the inviter in the endpoint's answer.
   */
  issuedLinks: Map<string, string>;
  /** Account deletions between better-auth's beforeDelete and afterDelete hooks, by user id. */
  deletions: Map<string, AccountDeletionPlan>;
}

function buildAuth(
  lib: AuthLibrary,
  config: AppConfig,
  pool: pg.Pool,
  logger?: Logger,
  mailer: Mailer = createMailer(config, logger),
) {
  const { betterAuth, APIError } = lib;
  const secure = config.baseUrl.startsWith('https://');
  const rules = new TeamRules(pool);
  const enforce = async <T>(rule: () => Promise<T> | T): Promise<T> => {
    try {
      return await rule();
    } catch (err) {
      if (err instanceof TeamRuleError) throw new APIError(err.status, { code: err.code, message: err.message });
      throw err;
    }
  };
  const auth: AuthContext = {
    lib,
    config,
    mailer,
    logger,
    rules,
    enforce,
    issuedLinks: new Map<string, string>(),
    deletions: new Map<string, AccountDeletionPlan>(),
  };
  return betterAuth({
    appName: 'SEO Audit Platform',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: pool,
    trustedOrigins: config.trustedOrigins,
    emailAndPassword: passwordOptions(auth),
    // With mail configured, sign-up sends a link that confirms the address (accepting an invitation needs a
    // confirmed one), and a new e-mail address is used once its owner opens the link sent to it.
    ...(mailer.enabled && {
      emailVerification: {
        sendOnSignUp: true,
        sendVerificationEmail: async ({ user, url, token }) =>
          mailer.send(
            changesAddress(token) ? changeEmailMail({ to: user.email, url }) : verifyEmailMail({ to: user.email, url }),
          ),
      },
    }),
    user: userOptions(auth),
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
    hooks: requestHooks(auth),
    plugins: [organizationPlugin(auth)],
    databaseHooks: sessionHooks(auth),
  });
}

/** Sign-in by e-mail and password; the reset link opens the app's page (not better-auth's redirecting endpoint). */
function passwordOptions({ config, mailer, logger }: AuthContext) {
  return {
    enabled: true,
    minPasswordLength: 8,
    maxPasswordLength: 128,
    autoSignIn: true,
    // The token is redacted from logs.
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
  } satisfies BetterAuthOptions['emailAndPassword'];
}

/** Changing one's address (with mail only) and deleting one's account, under the team rules. */
function userOptions({ mailer, rules, enforce, deletions }: AuthContext) {
  return {
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
  } satisfies BetterAuthOptions['user'];
}

/** The team rules better-auth's endpoints do not know, run before them; and the answers they give, adjusted after. */
function requestHooks({ lib, mailer, rules, enforce, issuedLinks }: AuthContext) {
  const { createAuthMiddleware, getSessionFromCtx } = lib;
  return {
    before: createAuthMiddleware(async (ctx) => {
      const carrier = INVITATION_READS[ctx.path];
      if (carrier) {
        const input = (carrier === 'body' ? ctx.body : ctx.query) as Record<string, unknown> | undefined;
        const id = carrier === 'body' ? input?.invitationId : input?.id;
        // Without mail the link's secret is what proves the invitation reached its invitee.
        await enforce(() => rules.checkInvitationSecret(id, input?.secret, !mailer.enabled));
      } else if (ctx.path === '/organization/remove-member') {
        // Our rule first, so that each refusal says what it is with its status: better-auth refuses a member with
        // a 401 (which reads as "signed out") and an admin removing an owner with "the only owner" (a 400).
        const body = ctx.body as { memberIdOrEmail?: unknown; organizationId?: unknown } | undefined;
        const session = await getSessionFromCtx(ctx);
        const organizationId = body?.organizationId ?? session?.session.activeOrganizationId;
        if (session && typeof organizationId === 'string' && typeof body?.memberIdOrEmail === 'string') {
          const target = body.memberIdOrEmail;
          await enforce(() => rules.assertMayRemove(session.user.id, organizationId, target));
        }
      }
    }),
    // Runs after the endpoint; what it returns replaces a successful answer (never a refusal's status).
    after: createAuthMiddleware(async (ctx) => {
      const returned = ctx.context.returned;
      if (returned instanceof Error || !returned || typeof returned !== 'object') return;
      if (ctx.path === '/organization/invite-member' && 'id' in returned && typeof returned.id === 'string') {
        const link = issuedLinks.get(returned.id);
        issuedLinks.delete(returned.id);
        // The inviter (an owner or admin) gets the link once; only its hash is kept.
        if (link) return ctx.json({ ...returned, link });
      }
      if (ctx.path === '/organization/list-invitations' && Array.isArray(returned)) {
        const list = returned as ListedInvitation[];
        const session = await getSessionFromCtx(ctx);
        const organizationId = list[0]?.organizationId;
        const manages =
          !!session && typeof organizationId === 'string' && (await rules.manages(session.user.id, organizationId));
        return ctx.json(list.map((invitation) => invitationAsListed(invitation, manages)));
      }
    }),
  };
}

/** Organizations, members and invitations (better-auth's organization plugin) under the team rules. */
function organizationPlugin({ lib, config, mailer, rules, enforce, issuedLinks }: AuthContext) {
  return lib.organization({
    allowUserToCreateOrganization: true,
    creatorRole: 'owner',
    // Deleting an organization deletes its projects: not offered (an account's own organization goes with it).
    disableOrganizationDeletion: true,
    invitationExpiresIn: INVITATION_EXPIRES_IN_SEC,
    cancelPendingInvitationsOnReInvite: true,
    // With mail configured, only an invitee whose address is confirmed accepts (or reads, or declines) an
    // invitation; without it, the link's secret stands for that proof (the before-hook, requestHooks).
    requireEmailVerificationOnInvitation: mailer.enabled,
    // Called for every invitation made or renewed (resend): it gets a new secret, whose link goes to the inviter
    // (the after-hook) and, with SMTP, by mail; without SMTP the inviter copies it (docs/configuration.md).
    sendInvitationEmail: async ({ id, email, role, organization: org, invitation, inviter }) => {
      const url = invitationLink(config.baseUrl, id, await rules.issueInvitationSecret(id));
      issuedLinks.set(id, url);
      if (!mailer.enabled) return;
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
  });
}

/** Where sessions are made and changed: the personal organization at sign-up, the active one kept on accepting. */
function sessionHooks({ lib, config }: AuthContext) {
  return {
    session: {
      update: {
        // Accepting an invitation leaves the session in the organization it was in (better-auth would switch it
        // to the new one): the client switches when asked to (set-active).
        before: async (session, ctx) => {
          if (ctx?.path === '/organization/accept-invitation' && 'activeOrganizationId' in session) return false;
        },
      },
      create: {
        // Sign-up creates its session inside its transaction: the personal organization is made there too.
        before: async (session, ctx) => {
          if (!ctx) return;
          const adapter = await lib.getCurrentAdapter(ctx.context.adapter);
          const created = await ensurePersonalOrganization(adapter, session.userId, config.DEFAULT_PLAN);
          return created ? { data: { ...session, activeOrganizationId: created.id } } : undefined;
        },
      },
    },
  } satisfies BetterAuthOptions['databaseHooks'];
}

export type Auth = ReturnType<typeof buildAuth>;
