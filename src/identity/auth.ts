import type pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { IdentityRepository } from './identity.repository.js';

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
  organization: (typeof import('better-auth/plugins'))['organization'];
}

/**
 * better-auth is loaded when an auth instance is made (API and CLI), so that processes which only import
 * this module's neighbours, such as the workers, do not carry it (~20 MB of RSS).
 */
export async function createAuth(config: AppConfig, pool: pg.Pool, logger?: Logger): Promise<Auth> {
  const [{ betterAuth }, { organization }] = await Promise.all([import('better-auth'), import('better-auth/plugins')]);
  return buildAuth({ betterAuth, organization }, config, pool, logger);
}

function buildAuth({ betterAuth, organization }: AuthLibrary, config: AppConfig, pool: pg.Pool, logger?: Logger) {
  const secure = config.baseUrl.startsWith('https://');
  return betterAuth({
    appName: 'SEO Audit Platform',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: pool,
    trustedOrigins: config.trustedOrigins,
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
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
      user: {
        create: {
          after: async (user) => {
            await insertOrganization(pool, {
              name: `${user.name || user.email.split('@')[0]}'s organization`,
              ownerUserId: user.id,
              plan: config.DEFAULT_PLAN,
            });
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof buildAuth>;
