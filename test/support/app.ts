import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type AppConfig, type Plan } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { createDomainRuntime, type DomainRuntime } from '../../schema/domain-runtime.js';
import { buildServer } from '../../facades/server.js';
import { useRedisPrefix } from './redis-keys.js';

export interface TestApp {
  app: FastifyInstance;
  runtime: DomainRuntime;
  config: AppConfig;
  logs: string[];
  queries: string[];
  close(): Promise<void>;
}

export const uniq = (): string => randomBytes(5).toString('hex');

/** The 'error' listener of a test's own BullMQ objects: nothing expected, so anything is printed. */
export const reportQueueError = (err: Error): void => console.error('BullMQ error in a test', err);

/**
 * A real API process in-memory (Fastify inject), on the shared test PostgreSQL and Redis.
 * Each app gets its own Redis key prefix unless one is passed (two apps sharing counters pass the same); the keys
 * under it are deleted after the test file (test/setup-redis.ts), workers started with the same prefix included.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, REDIS_PREFIX: `t-${uniq()}`, LOG_LEVEL: 'info', ...env });
  useRedisPrefix(config.REDIS_PREFIX);
  const logs: string[] = [];
  const queries: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'test' }, sink);
  const runtime = await createDomainRuntime(config, logger, { onQuery: (sql) => queries.push(sql) });
  const app = await buildServer(runtime);
  await app.ready();
  return {
    app,
    runtime,
    config,
    logs,
    queries,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

export interface TestUser {
  email: string;
  cookie: string;
  userId: string;
  organizationId: string;
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const session = list.find((c) => c.startsWith('better-auth.session-token='));
  if (!session) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return session.split(';')[0];
}

/** Signs a new user up through better-auth's HTTP endpoint and returns their session cookie. */
export async function signUp(t: TestApp, opts: { plan?: Plan; email?: string } = {}): Promise<TestUser> {
  const email = opts.email ?? `user-${uniq()}@example.test`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: t.config.baseUrl },
    payload: { email, password: 'correct-horse-battery', name: 'Test User' },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed ${res.statusCode}: ${res.body}`);
  const userId = res.json().user.id as string;
  const [member] = await t.runtime.pool
    .query('SELECT "organizationId" FROM "member" WHERE "userId" = $1', [userId])
    .then((r) => r.rows);
  const user = { email, cookie: sessionCookie(res), userId, organizationId: member.organizationId as string };
  if (opts.plan) await setPlan(t, user.organizationId, opts.plan);
  return user;
}

export async function setPlan(t: TestApp, organizationId: string, plan: Plan): Promise<void> {
  await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', [plan, organizationId]);
}

export async function gql<T = any>(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', origin: t.config.baseUrl, ...headers },
    payload: { query, variables },
  });
  return {
    status: res.statusCode,
    body: res.json() as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] },
    res,
  };
}

export async function createApiKey(t: TestApp, user: TestUser, name = 'test key'): Promise<string> {
  const { body } = await gql(
    t,
    'mutation($n: String!) { createApiKey(name: $n) { key } }',
    { n: name },
    { cookie: user.cookie },
  );
  if (!body.data) throw new Error(`createApiKey failed: ${JSON.stringify(body.errors)}`);
  return body.data.createApiKey.key as string;
}

/** Creates a project through the dashboard GraphQL (allowed on every plan within quota). */
export async function createProject(
  t: TestApp,
  user: TestUser,
  url = `https://site-${uniq()}.example.com`,
): Promise<{ id: string; url: string; domain: string }> {
  const { body } = await gql(
    t,
    'mutation($i: CreateProjectInput!) { createProject(input: $i) { id url domain } }',
    { i: { url } },
    { cookie: user.cookie },
  );
  if (!body.data) throw new Error(`createProject failed: ${JSON.stringify(body.errors)}`);
  return body.data.createProject;
}
