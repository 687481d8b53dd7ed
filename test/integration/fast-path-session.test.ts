/**
 * The session fast path (src/platform/fast-path/session-principal.ts) against the library path it replaces
 * (better-auth's auth.api.getSession, then the membership), over thousands of generated Cookie headers: for every
 * header, whenever the fast path answers (a principal or no principal) its answer is the library's; when it defers
 * (`undefined`), the library path decides, as in production. Each run first puts its session into the state it
 * names (fresh, due for refresh, expired, gone), because the library path deletes or extends sessions.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/identity/index.js';
import { sessionCookieRules } from '../../src/identity/session-principal.js';
import { principalFromSessionCookie } from '../../src/platform/fast-path/session-principal.js';
import type { DomainRuntime } from '../../schema/domain-runtime.js';
import { createTestApp, signUp, uniq, type TestApp } from '../support/app.js';

let t: TestApp;
let library: DomainRuntime;
const users: { userId: string; organizationId: string }[] = [];
/** One session per user (token -> user), rewritten by every run into the state the run names. */
const sessions: { token: string; userId: string; activeOrganizationId: string | null }[] = [];

beforeAll(async () => {
  t = await createTestApp({ DEFAULT_PLAN: 'FREE' });
  library = await t.runtime.withFastPaths({ sessionCookie: false });
  // A PRO owner; an ENTERPRISE owner who is also admin of a second organization, active in one of its sessions;
  // and a user who belongs to no organization at all.
  for (const plan of ['PRO', 'ENTERPRISE', 'FREE'] as const) users.push(await signUp(t, { plan }));
  const second = `org-${uniq()}`;
  await t.runtime.pool.query(
    `INSERT INTO "organization" (id, name, slug, "createdAt", plan) VALUES ($1, 'Second', $1, now(), 'PRO')`,
    [second],
  );
  await t.runtime.pool.query(
    `INSERT INTO "member" (id, "organizationId", "userId", role, "createdAt") VALUES ($1, $2, $3, 'admin', now())`,
    [`m-${uniq()}`, second, users[1].userId],
  );
  await t.runtime.pool.query('DELETE FROM "member" WHERE "userId" = $1', [users[2].userId]);
  const plan = [
    { user: 0, active: null },
    { user: 1, active: null },
    { user: 1, active: second },
    { user: 1, active: 'no-such-organization' },
    { user: 2, active: null },
  ];
  for (const { user, active } of plan)
    sessions.push({
      token: randomBytes(24).toString('base64url'),
      userId: users[user].userId,
      activeOrganizationId: active,
    });
});
afterAll(async () => {
  for (const user of users) await t.runtime.pool.query('DELETE FROM "user" WHERE id = $1', [user.userId]);
  await t.close();
});

const SECRET = () => t.config.authSecret;
const hmac = (token: string, secret: string) => createHmac('sha256', secret).update(token).digest('base64');

type SessionState = 'fresh' | 'due' | 'expired' | 'gone';
/** expiresAt relative to now: a week left (fresh), 5 days left (read more than a day after its last extension). */
const EXPIRES: Record<Exclude<SessionState, 'gone'>, string> = { fresh: '7 days', due: '5 days', expired: '-1 minute' };

async function putSession(index: number, state: SessionState): Promise<void> {
  const s = sessions[index];
  await t.runtime.pool.query('DELETE FROM "session" WHERE token = $1', [s.token]);
  if (state === 'gone') return;
  await t.runtime.pool.query(
    `INSERT INTO "session" (id, token, "userId", "activeOrganizationId", "expiresAt", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, now() + $5::interval, now(), now())`,
    [`s-${uniq()}`, s.token, s.userId, s.activeOrganizationId, EXPIRES[state]],
  );
}

/** Characters a Cookie header can carry through Node's HTTP parser: visible ASCII, space and tab. */
const headerChar = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09)).map((c) => String.fromCharCode(c));
const headerText = (maxLength: number) => fc.string({ unit: headerChar, maxLength });
const base64Char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');

/** A session cookie value (`token.signature`) as better-auth writes it, then bent in one of many ways. */
type Value = (token: string) => { value: string; kind: string };
const values: fc.Arbitrary<Value> = fc.oneof(
  // Valid cookies as often as all the bent ones together: the fast path's answers are what is compared.
  { weight: 9, arbitrary: fc.constant<Value>((tok) => ({ kind: 'valid', value: `${tok}.${hmac(tok, SECRET())}` })) },
  fc.tuple(fc.nat(), base64Char).map<Value>(([i, c]) => (tok) => {
    const sig = hmac(tok, SECRET());
    const at = i % 43;
    return { kind: 'tampered signature', value: `${tok}.${sig.slice(0, at)}${c}${sig.slice(at + 1)}` };
  }),
  fc.tuple(fc.nat(), fc.constantFrom(...'aAzZ09-_.')).map<Value>(([i, c]) => (tok) => {
    const at = i % tok.length;
    return { kind: 'tampered token', value: `${tok.slice(0, at)}${c}${tok.slice(at + 1)}.${hmac(tok, SECRET())}` };
  }),
  fc.nat().map<Value>((n) => (tok) => {
    const full = `${tok}.${hmac(tok, SECRET())}`;
    return { kind: 'truncated', value: full.slice(0, n % full.length) };
  }),
  fc.constant<Value>((tok) => ({
    kind: 'wrong secret',
    value: `${tok}.${hmac(tok, `another-secret-${'x'.repeat(32)}`)}`,
  })),
  fc.constant<Value>((tok) => ({ kind: 'unsigned', value: tok })),
  fc.constantFrom('base64url', 'unpadded', 'hex', 'doubled').map<Value>((form) => (tok) => {
    const digest = createHmac('sha256', SECRET()).update(tok).digest();
    const sig = {
      base64url: digest.toString('base64url'),
      unpadded: digest.toString('base64').replace(/=$/, ''),
      hex: digest.toString('hex'),
      doubled: `${hmac(tok, SECRET())}=`,
    }[form];
    return { kind: `signature as ${form}`, value: `${tok}.${sig}` };
  }),
  fc
    .tuple(headerText(8), headerText(8))
    .map<Value>(([a, b]) => (tok) => ({ kind: 'padded', value: `${a}${tok}.${hmac(tok, SECRET())}${b}` })),
  headerText(120).map<Value>((junk) => () => ({ kind: 'garbage', value: junk })),
  fc.tuple(headerText(40), base64Char).map<Value>(([junk, c]) => () => ({
    kind: 'garbage signed',
    value: `${junk}.${hmac(junk, SECRET())}`.replace(/.$/, c),
  })),
);

/** How the value sits in the header: encoded as better-auth sets it or not, quoted, among other cookies. */
type Placement = (value: string) => string;
const cookiePair = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/), headerText(20))
  .map(([n, v]) => `${n}=${v.replace(/;/g, '')}`);
const placements: fc.Arbitrary<Placement> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Placement>((v) => `${SESSION_COOKIE}=${encodeURIComponent(v)}`) },
  fc.constant<Placement>((v) => `${SESSION_COOKIE}=${v}`),
  fc.constant<Placement>((v) => `${SESSION_COOKIE}="${encodeURIComponent(v)}"`),
  fc.tuple(fc.array(cookiePair, { maxLength: 3 }), fc.array(cookiePair, { maxLength: 3 })).map<Placement>(
    ([before, after]) =>
      (v) =>
        [...before, `${SESSION_COOKIE}=${encodeURIComponent(v)}`, ...after].join('; '),
  ),
  fc
    .constantFrom(' ', '  ', '\t')
    .map<Placement>((ws) => (v) => `${ws}${SESSION_COOKIE}${ws}=${ws}${encodeURIComponent(v)}${ws};x=1`),
  fc.nat().map<Placement>((n) => (v) => {
    // Some characters percent-encoded that need not be, one of them possibly cut.
    const encoded = [...v]
      .map((c, i) => ((n >> (i % 16)) & 1 ? `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}` : c))
      .join('');
    return `${SESSION_COOKIE}=${n % 7 === 0 ? encoded.slice(0, -1) : encoded}`;
  }),
  fc
    .constantFrom('__Secure-', '__Host-', 'x', '')
    .map<Placement>((prefix) => (v) => `${prefix}${SESSION_COOKIE}${prefix ? '' : '2'}=${encodeURIComponent(v)}`),
  fc.constant<Placement>((v) => `${SESSION_COOKIE}=${encodeURIComponent(v)}; ${SESSION_COOKIE}=other`),
  fc.constant<Placement>((v) => `${SESSION_COOKIE}=other.x; ${SESSION_COOKIE}=${encodeURIComponent(v)}`),
  fc.nat().map<Placement>((n) => (v) => {
    const header = `${SESSION_COOKIE}=${encodeURIComponent(v)}`;
    return header.slice(0, n % (header.length + 1));
  }),
  headerText(200).map<Placement>((junk) => () => junk),
);

const cases = fc.record({
  session: fc.nat({ max: 4 }),
  state: fc.constantFrom<SessionState>('fresh', 'fresh', 'due', 'expired', 'gone'),
  value: values,
  placement: placements,
});

describe('the session fast path, proven equal to better-auth getSession (fast-check)', () => {
  it('gives the principal, or no principal, that the library path gives, for any Cookie header', async () => {
    const rules = sessionCookieRules(SECRET());
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(cases, async ({ session, state, value, placement }) => {
        const { kind, value: raw } = value(sessions[session].token);
        // What Node hands the server: header values without surrounding whitespace.
        const header = placement(raw).trim();
        await putSession(session, state);
        const fast = await principalFromSessionCookie(t.runtime.orm.em, rules, header, 'SURFACE_B');
        await putSession(session, state);
        const viaLibrary = await library.authenticate(
          { session: { cookie: header, headers: () => new Headers({ cookie: header }) } },
          'SURFACE_B',
        );
        count(fast === undefined ? `deferred (${state}, ${kind})` : fast ? `principal (${state})` : 'no principal');
        if (fast !== undefined) expect(fast, `${kind}, session ${state}: ${header}`).toEqual(viaLibrary);
      }),
      { numRuns: 5000 },
    );
    // The property is about the cases the fast path answers itself: there must be many of each kind.
    console.info(
      [...seen]
        .sort()
        .map(([k, n]) => `${n}\t${k}`)
        .join('\n'),
    );
    const total = (prefix: string) => [...seen].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);
    expect(total('principal (fresh)')).toBeGreaterThan(300);
    expect(total('no principal')).toBeGreaterThan(1000);
    // It defers for expired sessions and those due for refresh only (and unusually written signatures).
    const deferred = [...seen].filter(
      ([k]) => k.startsWith('deferred') && !/\((due|expired),|signature as|garbage/.test(k),
    );
    expect(deferred).toEqual([]);
  }, 600_000);

  it('answers for a fresh session without better-auth, defers an expired one (getSession removes it)', async () => {
    const rules = sessionCookieRules(SECRET());
    const { token } = sessions[0];
    const header = `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${hmac(token, SECRET())}`)}`;
    await putSession(0, 'fresh');
    expect(await principalFromSessionCookie(t.runtime.orm.em, rules, header, 'SURFACE_B')).toEqual({
      organizationId: users[0].organizationId,
      plan: 'PRO',
      role: 'owner',
      via: 'SESSION',
      channel: 'SURFACE_B',
      userId: users[0].userId,
    });
    await putSession(0, 'expired');
    expect(await principalFromSessionCookie(t.runtime.orm.em, rules, header, 'SURFACE_B')).toBeUndefined();
    expect(
      await t.runtime.authenticate(
        { session: { cookie: header, headers: () => new Headers({ cookie: header }) } },
        'SURFACE_B',
      ),
    ).toBeNull();
    const { rows } = await t.runtime.pool.query('SELECT 1 FROM "session" WHERE token = $1', [token]);
    expect(rows).toEqual([]);
  });
});
