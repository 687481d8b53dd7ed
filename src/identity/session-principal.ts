import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Plan } from '../platform/config.js';
import type { Channel, MemberRole, Principal } from '../platform/context.js';
import { nativeResult, type NativeDb } from '../platform/db/native-query.js';
import { SESSION_COOKIE, SESSION_EXPIRES_IN_SEC, SESSION_UPDATE_AGE_SEC } from './auth.js';
import { membershipSql } from './organization.service.js';

/** A strict standard-base64 HMAC-SHA256 signature, as better-call writes it (32 bytes: 43 characters and one '='). */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * What a Cookie header says about a session, decided without better-auth: `null` when it carries no valid signed
 * session token (better-call's getSignedCookie would give null or false: no session), `undefined` when only
 * better-auth can tell, or the token whose signature checked out.
 */
export function signedSessionToken(cookieHeader: string, secret: string): string | null | undefined {
  const raw = cookieValue(cookieHeader, SESSION_COOKIE);
  if (raw === null) return null;
  // better-call: `${token}.${base64(HMAC-SHA256(secret, token))}`, URI-encoded; anything else is no session.
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

/**
 * The session, its user and the membership that makes the principal, in one statement (better-auth's getSession
 * reads the session and the user in two, and the membership was a third). The membership is chosen by the same
 * rule as OrganizationService.membershipForUser: membershipSql, joined laterally to the session row.
 */
const SESSION_SQL = `SELECT s."expiresAt" AS expires_at, s."userId" AS user_id, m.organization_id, m.plan, m.role
  FROM "session" s
  JOIN "user" u ON u.id = s."userId"
  LEFT JOIN LATERAL (${membershipSql('s."userId"', `COALESCE(s."activeOrganizationId", '')`)}) m ON true
  WHERE s.token = $1`;

interface SessionRow {
  expires_at: Date;
  user_id: string;
  organization_id: string | null;
  plan: Plan | null;
  role: MemberRole | null;
}

/**
 * Surface B's hot path: a session cookie to a principal with one indexed read, for the sessions better-auth would
 * simply return. `undefined` hands the request to better-auth's getSession: an expired session (better-auth
 * deletes it) and one due for its daily refresh (better-auth extends it), so both keep better-auth's behaviour.
 */
export async function principalFromSessionCookie(
  db: NativeDb,
  cookieHeader: string,
  secret: string,
  channel: Channel,
  now: number = Date.now(),
): Promise<Principal | null | undefined> {
  const token = signedSessionToken(cookieHeader, secret);
  if (typeof token !== 'string') return token;
  const { rows } = await nativeResult<SessionRow>(db, SESSION_SQL, [token]);
  const row = rows[0];
  if (!row) return null;
  const expiresAt = row.expires_at.getTime();
  if (!(expiresAt >= now) || expiresAt - SESSION_EXPIRES_IN_SEC * 1000 + SESSION_UPDATE_AGE_SEC * 1000 <= now) return undefined;
  if (!row.organization_id || !row.plan || !row.role) return null;
  return { organizationId: row.organization_id, plan: row.plan, role: row.role, via: 'SESSION', channel, userId: row.user_id };
}
