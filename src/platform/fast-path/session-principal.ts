import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Plan } from '../config.js';
import type { Channel, MemberRole, Principal } from '../context.js';
import type { NativeDb, NativeResult } from '../db/native-query.js';

/**
 * Replaces, for most requests, better-auth's `auth.api.getSession` (better-call's getSignedCookie, then a read of
 * the session and one of its user) followed by the membership read: one HMAC and one indexed statement. Proven
 * equal by test/integration/fast-path-session.test.ts; measured by `npm run bench -- facade` (README.md).
 */

/** A strict standard-base64 HMAC-SHA256 signature, as better-call writes it (32 bytes: 43 characters and one '='). */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * What a Cookie header says about a signed cookie, decided without better-call: `null` when it carries no validly
 * signed value (better-call's getSignedCookie would give null or false), `undefined` when only better-call can
 * tell, or the value whose signature checked out.
 */
export function signedCookieValue(cookieHeader: string, name: string, secret: string): string | null | undefined {
  const raw = cookieValue(cookieHeader, name);
  if (raw === null) return null;
  // better-call: `${value}.${base64(HMAC-SHA256(secret, value))}`, URI-encoded; anything else is no session.
  const dot = raw.lastIndexOf('.');
  if (dot < 1) return null;
  const token = raw.slice(0, dot);
  const signature = raw.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  // A signature better-call's decoder might read otherwise (whitespace, another alphabet): its verdict, not ours.
  if (!SIGNATURE.test(signature)) return undefined;
  const expected = createHmac('sha256', secret).update(token).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'base64')) ? token : null;
}

/**
 * A cookie's value as better-call parses the header: the first pair with that name, trimmed, without surrounding
 * quotes, percent-decoded when it decodes.
 */
function cookieValue(header: string, name: string): string | null {
  let index = 0;
  while (index < header.length) {
    const eq = header.indexOf('=', index);
    if (eq === -1) return null;
    let end = header.indexOf(';', index);
    if (end === -1) end = header.length;
    else if (end < eq) {
      index = header.lastIndexOf(';', eq - 1) + 1;
      continue;
    }
    if (header.slice(index, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.codePointAt(0) === 34) value = value.slice(1, -1);
      try {
        return value.includes('%') ? decodeURIComponent(value) : value;
      } catch {
        return value;
      }
    }
    index = end + 1;
  }
  return null;
}

/** The row `readSession` returns for a session token: no row when there is no such session or user. */
export interface SessionRow {
  expires_at: Date;
  user_id: string;
  /** The membership that makes the principal, chosen as the library path chooses it; null when there is none. */
  organization_id: string | null;
  plan: Plan | null;
  role: MemberRole | null;
}

/**
 * What the fast path needs to know of the auth configuration, handed over by the identity module (which owns the
 * cookie, the session settings and the tables): this directory imports no domain module.
 */
export interface SessionCookieRules {
  cookieName: string;
  /** The secret better-auth signs session cookies with. */
  secret: string;
  /** better-auth's session.expiresIn and session.updateAge, in seconds. */
  expiresInSec: number;
  updateAgeSec: number;
  /**
   * One statement: the session with this token, joined to its user and to the membership (SessionRow). The
   * identity module's repository runs it (its tables, its SQL); this directory holds no SQL.
   */
  readSession(db: NativeDb, token: string): Promise<NativeResult<SessionRow>>;
}

/**
 * A session cookie to a principal with one indexed read, for the sessions better-auth would simply return.
 * `undefined` hands the request to the library path: an expired session (better-auth deletes it), one due for its
 * refresh (better-auth extends it) and an unusually written signature, so those keep better-auth's behaviour.
 */
export async function principalFromSessionCookie(
  db: NativeDb,
  rules: SessionCookieRules,
  cookieHeader: string,
  channel: Channel,
  now: number = Date.now(),
): Promise<Principal | null | undefined> {
  const token = signedCookieValue(cookieHeader, rules.cookieName, rules.secret);
  if (typeof token !== 'string') return token;
  const { rows } = await rules.readSession(db, token);
  const row = rows[0];
  if (!row) return null;
  const expiresAt = row.expires_at.getTime();
  if (!(expiresAt >= now) || expiresAt - rules.expiresInSec * 1000 + rules.updateAgeSec * 1000 <= now) return undefined;
  if (!row.organization_id || !row.plan || !row.role) return null;
  return {
    organizationId: row.organization_id,
    plan: row.plan,
    role: row.role,
    via: 'SESSION',
    channel,
    userId: row.user_id,
  };
}
