import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type AppConfig, type Plan } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { createDomainRuntime, type DomainRuntime } from '../../schema/domain-runtime.js';
import { buildServer } from '../../facades/server.js';
import { useRedisPrefix } from './redis-keys.js';
import * as actors from './actors.js';
import { organizationOfMember, parseJson, rowsOf, sessionCookieOf, type Account, type Door } from './actors.js';

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

/** A signed-up user with their session cookie and personal organization (an actors.ts Account). */
export type TestUser = Account;

/** Fastify's inject as an actors.ts door; a new user's organization is read from the database. */
export function injectDoor(t: TestApp): Door {
  return {
    origin: t.config.baseUrl,
    async post(path, payload, headers = {}) {
      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { origin: t.config.baseUrl, ...headers },
        payload: payload as object,
      });
      const raw = res.headers['set-cookie'];
      const setCookies = Array.isArray(raw) ? raw : raw ? [raw] : [];
      return { status: res.statusCode, text: res.body, json: parseJson(res.body), setCookies };
    },
    organizationOf: (userId) => organizationOfMember(rowsOf(t.runtime.pool), userId),
  };
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return sessionCookieOf(list, `response ${res.statusCode}: ${res.body}`);
}

/** Signs a new user up through better-auth's HTTP endpoint (actors.ts), on `plan` when given. */
export async function signUp(t: TestApp, opts: { plan?: Plan; email?: string } = {}): Promise<TestUser> {
  const user = await actors.signUp(injectDoor(t), { email: opts.email });
  if (opts.plan) await setPlan(t, user.organizationId, opts.plan);
  return user;
}

export async function setPlan(t: TestApp, organizationId: string, plan: Plan): Promise<void> {
  await actors.setPlan(rowsOf(t.runtime.pool), organizationId, plan);
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

/** An API key of the user's organization (actors.ts); the full key. */
export async function createApiKey(t: TestApp, user: TestUser, name = 'test key'): Promise<string> {
  return (await actors.createApiKey(injectDoor(t), user, name)).key;
}

/** Creates a project through the dashboard GraphQL (actors.ts; allowed on every plan within quota). */
export function createProject(
  t: TestApp,
  user: TestUser,
  url = `https://site-${uniq()}.example.com`,
): Promise<{ id: string; url: string; domain: string }> {
  return actors.createProject(injectDoor(t), user, { url });
}
