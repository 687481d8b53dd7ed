/**
 * The people of a test, made through the product's own doors: a user signs up with better-auth (and gets their
 * personal organization), makes API keys and projects through the dashboard's GraphQL. One definition for every
 * kind of test: integration tests go through Fastify's inject (support/app.ts), the benches and drills through
 * HTTP to a running process (fetchDoor, the drills' client). Plans are set in the database: the product sets them
 * server-side only (billing, the CLI).
 */

import { randomBytes } from 'node:crypto';

/** An answer, as every door gives it. */
export interface DoorAnswer {
  status: number;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
  /** The Set-Cookie headers, one string each. */
  setCookies: string[];
}

/** A way into one API process. Requests carry the API's own Origin (a trusted origin). */
export interface Door {
  origin: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<DoorAnswer>;
  /**
   * The organization of a user just signed up. A door over the database reads its membership (no request that a
   * test counting requests or rate limits would see); without it, GraphQL's viewer answers.
   */
  organizationOf?(userId: string): Promise<string>;
}

/** A signed-up user: their session and their personal organization. */
export interface Account {
  email: string;
  password: string;
  userId: string;
  /** `better-auth.session-token=…`, as sent in a Cookie header. */
  cookie: string;
  /** The raw value of the session cookie. */
  sessionToken: string;
  organizationId: string;
}

export const SESSION_COOKIE = 'better-auth.session-token';
export const TEST_PASSWORD = 'correct-horse-battery';

/** `better-auth.session-token=…` from an answer's Set-Cookie headers. */
export function sessionCookieOf(setCookies: readonly string[], what = 'the answer'): string {
  const session = setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!session) throw new Error(`no session cookie in ${what}`);
  return session.split(';')[0];
}

const uniqueSuffix = (): string => randomBytes(5).toString('hex');

/** Signs a user up through better-auth's /api/auth (their personal organization is created on DEFAULT_PLAN). */
export async function signUp(
  door: Door,
  opts: { email?: string; password?: string; name?: string } = {},
): Promise<Account> {
  const email = opts.email ?? `user-${uniqueSuffix()}@example.test`;
  const password = opts.password ?? TEST_PASSWORD;
  const res = await door.post('/api/auth/sign-up/email', { email, password, name: opts.name ?? 'Test User' });
  if (res.status !== 200) throw new Error(`sign-up failed ${res.status}: ${res.text}`);
  const cookie = sessionCookieOf(res.setCookies, `the sign-up's answer (${res.status}: ${res.text})`);
  let userId = res.json?.user?.id as string | undefined;
  let organizationId: string;
  if (door.organizationOf && userId) {
    organizationId = await door.organizationOf(userId);
  } else {
    const viewer = await graphql(door, '{ viewer { userId organization { id } } }', {}, cookie);
    if (!viewer.json?.data) throw new Error(`viewer failed: ${viewer.text}`);
    userId = viewer.json.data.viewer.userId as string;
    organizationId = viewer.json.data.viewer.organization.id as string;
  }
  return { email, password, userId, cookie, sessionToken: cookie.slice(SESSION_COOKIE.length + 1), organizationId };
}

function graphql(door: Door, query: string, variables: Record<string, unknown>, cookie: string) {
  return door.post('/graphql', { query, variables }, { cookie });
}

export interface CreatedApiKey {
  id: string;
  /** The full key, shown once. */
  key: string;
  prefix: string;
}

/** An API key of the account's organization, made from the dashboard's GraphQL. */
export async function createApiKey(door: Door, account: { cookie: string }, name = 'test key'): Promise<CreatedApiKey> {
  const res = await graphql(
    door,
    'mutation($n: String!) { createApiKey(name: $n) { key apiKey { id prefix } } }',
    { n: name },
    account.cookie,
  );
  const created = res.json?.data?.createApiKey;
  if (!created) throw new Error(`createApiKey failed: ${JSON.stringify(res.json?.errors) ?? res.text}`);
  return { id: created.apiKey.id, key: created.key, prefix: created.apiKey.prefix };
}

export interface CreatedProject {
  id: string;
  url: string;
  domain: string;
}

/** A project of the account's organization, made from the dashboard's GraphQL (every plan may, within quota). */
export async function createProject(
  door: Door,
  account: { cookie: string },
  input: { url: string; name?: string },
): Promise<CreatedProject> {
  const res = await graphql(
    door,
    'mutation($i: CreateProjectInput!) { createProject(input: $i) { id url domain } }',
    { i: input },
    account.cookie,
  );
  const created = res.json?.data?.createProject;
  if (!created) throw new Error(`createProject failed ${res.status}: ${JSON.stringify(res.json?.errors) ?? res.text}`);
  return created as CreatedProject;
}

/** Runs SQL and gives the rows: `platform.sql` of the drills, or `rowsOf(pool)`. */
export type Rows = (sql: string, params: unknown[]) => Promise<any[]>;

/** A pg pool or client as Rows. */
export const rowsOf =
  (pool: { query(sql: string, params: unknown[]): Promise<{ rows: any[] }> }): Rows =>
  (sql, params) =>
    pool.query(sql, params).then((r) => r.rows);

/** The organization a user is a member of (their personal one, right after sign-up). */
export async function organizationOfMember(rows: Rows, userId: string): Promise<string> {
  const [member] = await rows('SELECT "organizationId" FROM "member" WHERE "userId" = $1', [userId]);
  if (!member) throw new Error(`user ${userId} is a member of no organization`);
  return member.organizationId as string;
}

/** Sets an organization's plan, as billing or `seo org set-plan` would. */
export async function setPlan(rows: Rows, organizationId: string, plan: string): Promise<void> {
  await rows('UPDATE "organization" SET plan = $1 WHERE id = $2', [plan, organizationId]);
}

/** A door over HTTP to a running API process at `baseUrl` (no redirects followed). */
export function fetchDoor(baseUrl: string, opts: { rows?: Rows } = {}): Door {
  const { rows } = opts;
  return {
    origin: baseUrl,
    async post(path, body, headers = {}) {
      const res = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl, ...headers },
        body: JSON.stringify(body),
        redirect: 'manual',
      });
      const text = await res.text();
      return { status: res.status, text, json: parseJson(text), setCookies: res.headers.getSetCookie() };
    },
    organizationOf: rows ? (userId) => organizationOfMember(rows, userId) : undefined,
  };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
