/**
 * Secrets: with LOG_LEVEL=debug on every process, users sign up and in (and fail to, with wrong passwords),
 * sessions and API keys are used, revoked and forged, credentials travel in every place a client puts them
 * (Authorization: Bearer and Basic, X-API-Key, cookies, a key or token in the query string, a reset token in
 * the path), errors are triggered (bad JSON around a password, 401s, 404s, GraphQL errors), an audit runs,
 * and the CLI creates a user. Stored secrets are planted too: a crawl login of every kind (a BASIC password, a
 * BEARER token, a HEADER value, a COOKIE value, a FORM password and extra field), each used by an audit of a member
 * site, and webhook signing secrets (created, rotated, used by deliveries). Then every line every process printed
 * is searched for every planted secret: passwords, full keys and their secret part, cookie values, session tokens,
 * Authorization header values, BETTER_AUTH_SECRET, the stored secrets; and the stored secrets, passwords and keys
 * are searched in clear (as written, percent-, base64- and hex-encoded) in a dump of every table of the database,
 * every Redis key of the platform, and the API's answers about the projects, audits, exports and webhooks.
 * Expected: 0 found.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { startFixtureSite } from '../fixtures/sites/index.js';
import { formLoginFor, startMemberSite, startOtherHost } from '../support/crawl-login-site.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';
import {
  apiClient,
  createApiKey,
  keptLogs,
  must,
  sessionSecrets,
  signIn,
  signUp,
  waitForAudit,
  type Account,
  type ApiClient,
} from './drill-http.js';

const SITE = 'secrets.drill.test';
/** Where the webhook deliveries go. */
const HOOKS = 'hooks.secrets.drill.test';
/** The host a member site links to (a login is never sent there). */
const ELSEWHERE = 'elsewhere.secrets.drill.test';
const LOGIN_KINDS = ['BASIC', 'BEARER', 'HEADER', 'COOKIE', 'FORM'] as const;
const memberHost = (kind: string) => `members-${kind.toLowerCase()}.secrets.drill.test`;

/** The forms a stored secret could be found in "in clear": as written, percent-encoded, base64 and hex. */
function clearForms(value: string): string[] {
  const bytes = Buffer.from(value);
  return [...new Set([value, encodeURIComponent(value), bytes.toString('base64'), bytes.toString('base64url')])]
    .concat(bytes.toString('hex'))
    .filter((f) => f.length >= 8);
}

/** Every row of every table of the drill's database, as text (what a dump holds). */
async function databaseDump(platform: Platform): Promise<{ text: string; tables: number; rows: number }> {
  const tables = await platform.sql<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
     WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  let rows = 0;
  for (const t of tables) {
    const ident = (x: string) => `"${x.replace(/"/g, '""')}"`;
    const found = await platform.sql<{ row: string }>(
      `SELECT t::text AS row FROM ${ident(t.schema)}.${ident(t.name)} t`,
    );
    rows += found.length;
    for (const r of found) parts.push(`${t.name}: ${r.row}`);
  }
  return { text: parts.join('\n'), tables: tables.length, rows };
}

/** Every key of the platform's Redis prefix with its value(s), as text (BullMQ jobs, rate limits, sessions…). */
async function redisDump(platform: Platform): Promise<{ text: string; keys: number }> {
  const redis = new Redis(platform.env.REDIS_URL, { maxRetriesPerRequest: 2 });
  const parts: string[] = [];
  let keys = 0;
  try {
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${platform.env.REDIS_PREFIX}:*`, 'COUNT', 500);
      cursor = next;
      for (const key of batch) {
        keys++;
        const type = await redis.type(key);
        let values: Buffer[] = [];
        if (type === 'string') values = [(await redis.getBuffer(key)) ?? Buffer.alloc(0)];
        else if (type === 'hash')
          values = Object.entries(await redis.hgetallBuffer(key)).flatMap(([k, v]) => [Buffer.from(k), v]);
        else if (type === 'list') values = await redis.lrangeBuffer(key, 0, -1);
        else if (type === 'set') values = await redis.smembersBuffer(key);
        else if (type === 'zset') values = await redis.zrangeBuffer(key, '0', '-1');
        else if (type === 'stream')
          values = (await redis.xrangeBuffer(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
        parts.push(`${key}: ${values.map((v) => v.toString('utf8')).join(' ')}`);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return { text: parts.join('\n'), keys };
}

/** Waits for an endpoint's delivery log to hold `count` attempts; returns them (newest first). */
async function deliveries(api: ApiClient, cookie: string, endpointId: string, count: number) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const res = await api.gql(
      'query($e: ID!) { webhookDeliveries(endpointId: $e, first: 20) { nodes { succeeded statusCode error } } }',
      { e: endpointId },
      { cookie },
    );
    const nodes = (res.json?.data?.webhookDeliveries?.nodes ?? []) as { succeeded: boolean }[];
    if (nodes.length >= count) return nodes;
    await new Promise((r) => setTimeout(r, 250));
  }
  return [];
}

export const drill: Drill = {
  description:
    'secrets: every log line of every process (LOG_LEVEL=debug) searched for keys, passwords, cookies, ' +
    'tokens → 0 found',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const secrets = new Map<string, string>(); // value → what it is
    const plant = (what: string, value: string) => {
      if (value.length >= 8) secrets.set(value, what);
      return value;
    };
    const site = await startFixtureSite({ host: SITE });
    site.serve({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': {
        body:
          '<!doctype html><html><head><title>Secrets drill</title></head><body><h1>Hello</h1><a ' +
          'href="/a">a</a></body></html>',
      },
      '/a': { body: '<!doctype html><html><head><title>A</title></head><body><h1>A</h1></body></html>' },
    });
    // Member sites (one per login kind, each signed in only by its own secret), the host they link to, a receiver.
    const elsewhere = await startOtherHost(ELSEWHERE);
    const members = Object.fromEntries(
      await Promise.all(
        LOGIN_KINDS.map(
          async (kind) => [kind, await startMemberSite(memberHost(kind), () => elsewhere.origin)] as const,
        ),
      ),
    );
    const hooks = await startFixtureSite({ host: HOOKS, fallback: { body: 'ok' } });
    const hosts = [SITE, HOOKS, ELSEWHERE, ...LOGIN_KINDS.map(memberHost)];
    const platform = await startPlatform({
      apis: quick ? 1 : 2,
      workerGroups: 1,
      env: {
        LOG_LEVEL: 'debug',
        DEFAULT_PLAN: 'ENTERPRISE',
        SAFE_HTTP_ALLOW: hosts.join(','),
        SAFE_HTTP_RESOLVE: hosts.map((h) => `${h}=127.0.0.1`).join(','),
        AUTH_FAILURES_PER_MINUTE: '10000',
        ANONYMOUS_RATE_PER_MINUTE: '10000',
      },
    });
    plant('BETTER_AUTH_SECRET', platform.env.BETTER_AUTH_SECRET);
    /** Secrets the platform stores or holds (and passwords, keys): none may be in the database, Redis or an answer. */
    const stored = new Map<string, string>();
    const keep = (what: string, value: string) => {
      stored.set(plant(what, value), what);
      return value;
    };
    const figures: Record<string, unknown> = {};
    let requests = 0;
    try {
      const apis = platform.apis.map((a) => apiClient(a.baseUrl));
      const api = (i: number) => apis[i % apis.length];
      const users = quick ? 2 : 5;
      const accounts: Account[] = [];
      const keys: string[] = [];
      const revokedKeys: string[] = [];
      for (let u = 0; u < users; u++) {
        const email = `secret-${u}-${randomBytes(3).toString('hex')}@drill.test`;
        const password = keep('password', `Pw-${randomBytes(12).toString('base64url')}`);
        const account = await signUp(api(u), email, password);
        requests += 3;
        accounts.push(account);
        for (const c of sessionSecrets(account.cookie, 'sign-up session')) plant(c.what, c.value);
        // A second session by signing in, wrong passwords, an unknown user.
        const again = await signIn(api(u + 1), email, password);
        if (again.cookie) for (const c of sessionSecrets(again.cookie, 'sign-in session')) plant(c.what, c.value);
        for (let w = 0; w < 3; w++) {
          const wrong = plant('wrong password', `${password.slice(0, -2)}x${w}`);
          const failed = await signIn(api(u + w), email, wrong);
          expect(failed.status === 401, `a wrong password answered ${failed.status}`);
        }
        await signIn(
          api(u),
          `nobody-${u}@drill.test`,
          plant('password of an unknown user', `Nope-${randomBytes(10).toString('hex')}`),
        );
        requests += 5;
        // Keys: two used, one revoked and then used, plus forged ones.
        const k1 = await createApiKey(api(u), account, `secret key ${u}a`);
        const k2 = await createApiKey(api(u), account, `secret key ${u}b`);
        for (const k of [k1, k2]) {
          keep('API key', k.key);
          plant('API key without its shown prefix', k.key.slice(k.prefix.length));
        }
        keys.push(k1.key);
        revokedKeys.push(k2.key);
        const revoke = await api(u).gql(
          'mutation($id: ID!) { revokeApiKey(id: $id) { id } }',
          { id: k2.id },
          { cookie: account.cookie },
        );
        expect(!!revoke.json?.data, `revoking a key failed: ${revoke.text}`);
        requests += 3;
      }

      // Credentials in use, in every place a client puts them, from every API process.
      for (let round = 0; round < (quick ? 1 : 5); round++) {
        for (const [u, account] of accounts.entries()) {
          const key = keys[u];
          const forged = plant('forged API key', `${key.slice(0, 8)}${randomBytes(16).toString('base64url')}`);
          const basic = plant(
            'Authorization: Basic value',
            Buffer.from(`${account.email}:${randomBytes(8).toString('hex')}`).toString('base64'),
          );
          const forgedCookie = plant(
            'forged session cookie',
            `${randomBytes(16).toString('hex')}.${randomBytes(20).toString('base64url')}`,
          );
          const urlToken = plant('token in a URL', randomBytes(20).toString('hex'));
          const calls: [string, Record<string, string>, number[]][] = [
            ['/api/v1/projects', { authorization: `Bearer ${key}` }, [200]],
            ['/api/v1/projects', { authorization: `Bearer ${forged}` }, [401]],
            ['/api/v1/projects', { authorization: `Bearer ${revokedKeys[u]}` }, [401]],
            ['/api/v1/projects', { authorization: `Basic ${basic}` }, [401]],
            ['/api/v1/projects', { 'x-api-key': key }, [401]],
            ['/api/v1/projects', { authorization: key }, [401]],
            [`/api/v1/projects?api_key=${encodeURIComponent(key)}`, {}, [401]],
            [`/api/v1/projects/${randomBytes(8).toString('hex')}/audit`, { authorization: `Bearer ${key}` }, [404]],
            ['/api/projects', { cookie: account.cookie }, [200]],
            ['/api/projects', { cookie: `better-auth.session-token=${forgedCookie}` }, [401]],
            ['/api/projects', { cookie: `${account.cookie}x` }, [401]],
            ['/api/projects/does-not-exist', { cookie: account.cookie }, [404]],
            [`/api/auth/verify-email?token=${urlToken}`, {}, [400, 401, 404, 302]],
            [`/api/auth/reset-password/${urlToken}?callbackURL=%2F`, {}, [400, 401, 404, 302]],
            [`/api/auth/get-session`, { cookie: account.cookie }, [200]],
          ];
          for (const [path, headers, statuses] of calls) {
            const res = await api(round + u).request(path, { headers });
            requests++;
            expect(
              statuses.includes(res.status),
              `GET ${path.slice(0, 60)} answered ${res.status} ` +
                `(expected ${statuses.join('/')}): ${res.text.slice(0, 120)}`,
            );
          }
          // Errors around secrets: malformed JSON carrying a password, a wrong content type, GraphQL errors.
          const pw = account.password;
          await api(u).request('/api/auth/sign-in/email', {
            method: 'POST',
            body: `{"email":"${account.email}","password":"${pw}"`,
          });
          await api(u).request('/api/auth/sign-in/email', {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: `email=${account.email}&password=${pw}`,
          });
          await api(u).request('/api/projects', {
            method: 'POST',
            headers: { cookie: account.cookie },
            body: `{"url": "https://x.example/", "password": "${pw}"`,
          });
          await api(u).gql('{ viewer { nope } }', {}, { authorization: `Bearer ${key}` });
          // A server-side failure on an authenticated request (a NUL byte in a job id has reached PostgreSQL before).
          await api(u).request(`/api/v1/jobs/${encodeURIComponent('\u0000')}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          await api(u).request(`/api/jobs/${encodeURIComponent('\u0000')}`, { headers: { cookie: account.cookie } });
          await api(u).gql('query($k: String!) { viewer { role } }', { k: key }, { authorization: `Bearer ${forged}` });
          await api(u).gql('{ projects { id } }', {}, { cookie: `better-auth.session-token=${forgedCookie}` });
          requests += 8;
        }
      }

      // An audit (worker logs), and the CLI with a password on its command line.
      const owner = accounts[0];
      const project = must(
        await api(0).request('/api/projects', {
          method: 'POST',
          headers: { cookie: owner.cookie },
          body: { url: site.url('/') },
        }),
        200,
        'project',
      ).project;
      const started = must(
        await api(0).request(`/api/v1/projects/${project.id}/audit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys[0]}` },
        }),
        202,
        'audit',
      );
      const { audit } = await waitForAudit(api(0), owner.cookie, project.id, started.auditId, 60_000);
      expect(audit?.status === 'COMPLETED', `the audit ended ${audit?.status}`);

      // A crawl login of every kind, each on a project of its own member site, used by an audit.
      const secret = (what: string) => keep(what, `${what.split(' ')[2]}-${randomBytes(15).toString('base64url')}`);
      const loginInput = (kind: (typeof LOGIN_KINDS)[number]): Record<string, unknown> => {
        const site = members[kind];
        switch (kind) {
          case 'BASIC': {
            const password = secret('crawl login BASIC password');
            keep('crawl login BASIC Authorization value', Buffer.from(`crawler:${password}`).toString('base64'));
            site.setAuth({ kind, username: 'crawler', password });
            return { kind, username: 'crawler', password };
          }
          case 'BEARER': {
            const token = secret('crawl login BEARER token');
            site.setAuth({ kind, token });
            return { kind, token };
          }
          case 'HEADER': {
            const value = secret('crawl login HEADER value');
            site.setAuth({ kind, name: 'X-Preview-Token', value });
            return { kind, headerName: 'X-Preview-Token', headerValue: value };
          }
          case 'COOKIE': {
            const value = secret('crawl login COOKIE value');
            site.setAuth({ kind, name: 'member', value });
            return { kind, cookies: `member=${value}` };
          }
          case 'FORM': {
            const input = formLoginFor(site, 'crawler', secret('crawl login FORM password'));
            return { ...input, extraFields: [{ name: 'remember', value: secret('crawl login FORM extra-field') }] };
          }
        }
      };
      const loginProjects: { kind: string; id: string; auditId: string }[] = [];
      await Promise.all(
        LOGIN_KINDS.map(async (kind, i) => {
          const created = must(
            await api(i).request('/api/projects', {
              method: 'POST',
              headers: { cookie: owner.cookie },
              body: { url: `${members[kind].origin}/`, name: `login ${kind}` },
            }),
            200,
            `${kind} project`,
          ).project;
          const set = await api(i).gql(
            'mutation($p: ID!, $i: CrawlLoginInput!) { setCrawlLogin(projectId: $p, input: $i) { id crawlLogin ' +
              '{ kind } } }',
            { p: created.id, i: loginInput(kind) },
            { cookie: owner.cookie },
          );
          expect(!!set.json?.data?.setCrawlLogin, `setCrawlLogin ${kind}: ${set.text.slice(0, 300)}`);
          const run = must(
            await api(i).request(`/api/v1/projects/${created.id}/audit`, {
              method: 'POST',
              headers: { authorization: `Bearer ${keys[0]}` },
            }),
            202,
            `${kind} audit`,
          );
          const done = await waitForAudit(api(i), owner.cookie, created.id, run.auditId, 90_000);
          expect(done.audit?.status === 'COMPLETED', `the ${kind} login audit ended ${done.audit?.status}`);
          // Signed in: the member area's pages were fetched and answered (signed out, /members/ redirects to /login).
          expect(
            members[kind].requests.some((r) => r.path === '/members/a'),
            `the ${kind} login audit did not reach the member area (its secret was not used)`,
          );
          loginProjects.push({ kind, id: created.id, auditId: run.auditId });
          requests += 4;
        }),
      );

      // Webhook signing secrets: created (shown once), rotated (shown once), each used to sign a delivery.
      const hook = await api(0).gql(
        'mutation($p: ID!, $u: String!) { createWebhookEndpoint(projectId: $p, input: { url: $u }) ' +
          '{ endpoint { id } secret } }',
        { p: project.id, u: hooks.url('/hook') },
        { cookie: owner.cookie },
      );
      const endpointId = hook.json?.data?.createWebhookEndpoint?.endpoint?.id as string;
      expect(!!endpointId, `createWebhookEndpoint: ${hook.text.slice(0, 300)}`);
      if (endpointId) {
        keep('webhook signing secret', hook.json.data.createWebhookEndpoint.secret);
        const send = () =>
          api(1).gql(
            'mutation($e: ID!) { sendTestWebhook(endpointId: $e) { eventId } }',
            { e: endpointId },
            {
              cookie: owner.cookie,
            },
          );
        await send();
        await deliveries(api(0), owner.cookie, endpointId, 1);
        const rotated = await api(1).gql(
          'mutation($e: ID!) { rotateWebhookSecret(id: $e) { secret } }',
          { e: endpointId },
          { cookie: owner.cookie },
        );
        keep('rotated webhook signing secret', rotated.json?.data?.rotateWebhookSecret?.secret ?? '');
        await send();
        const log = await deliveries(api(0), owner.cookie, endpointId, 2);
        expect(
          log.length >= 2 && log.every((d) => d.succeeded),
          `the webhook deliveries did not succeed: ${JSON.stringify(log)}`,
        );
        requests += 7;
      }

      // The API's answers about all of it (the creation and rotation answers above are the only ones with a secret).
      const answers: string[] = [];
      const read = async (path: string, headers: Record<string, string>) => {
        const res = await api(answers.length).request(path, { headers });
        answers.push(`GET ${path}: ${res.text}`);
      };
      const ask = async (query: string, variables: Record<string, unknown>) => {
        const res = await api(answers.length).gql(query, variables, { cookie: owner.cookie });
        answers.push(`${query.slice(0, 60)}: ${res.text}`);
      };
      for (const p of loginProjects) {
        await ask(
          'query($p: ID!) { project(id: $p) { id url settings { maxPages userAgent } crawlLogin { kind loginUrl ' +
            'usernameField passwordField headerName cookieNames extraFieldNames updatedAt } } }',
          { p: p.id },
        );
        await read(`/api/projects/${p.id}/audit?auditId=${p.auditId}`, { cookie: owner.cookie });
        await read(`/api/projects/${p.id}/reports?auditId=${p.auditId}`, { cookie: owner.cookie });
        for (const kind of ['pages', 'issues'])
          await read(`/api/v1/projects/${p.id}/exports/${kind}?format=json&auditId=${p.auditId}`, {
            authorization: `Bearer ${keys[0]}`,
          });
        await ask(
          'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { error pages(first: 100) { nodes { url ' +
            'statusCode error } } } }',
          { p: p.id, a: p.auditId },
        );
      }
      await ask(
        'query($p: ID!) { webhookEndpoints(projectId: $p) { id url description lastDelivery { error ' +
          'responseExcerpt } } }',
        { p: project.id },
      );
      if (endpointId)
        await ask(
          'query($e: ID!) { webhookDeliveries(endpointId: $e) { nodes { error statusCode responseExcerpt } } }',
          { e: endpointId },
        );
      await ask('{ projects { id name url crawlLogin { kind headerName cookieNames } } }', {});
      requests += answers.length;

      // Where stored secrets rest: the database, Redis, and what the API answers.
      const [database, cache] = await Promise.all([databaseDump(platform), redisDump(platform)]);
      const places: [string, string][] = [
        ['the database', database.text],
        ['Redis', cache.text],
        ['an API answer', answers.join('\n')],
      ];
      const inClear: { what: string; where: string; excerpt: string }[] = [];
      for (const [value, what] of stored) {
        for (const [where, text] of places) {
          for (const form of clearForms(value)) {
            const at = text.indexOf(form);
            if (at >= 0) {
              inClear.push({ what, where, excerpt: text.slice(Math.max(0, at - 100), at + form.length + 20) });
              break;
            }
          }
        }
      }
      for (const f of inClear.slice(0, 20)) expect(false, `${f.what} in clear in ${f.where}: …${f.excerpt}…`);
      expect(inClear.length === 0, `${inClear.length} stored secret(s) in clear in the database, Redis or answers`);
      Object.assign(figures, {
        storedSecrets: stored.size,
        databaseTables: database.tables,
        databaseRows: database.rows,
        redisKeys: cache.keys,
        answersSearched: answers.length,
        databaseBytes: database.text.length,
        redisBytes: cache.text.length,
        foundInClear: inClear.length,
      });
      const cliPassword = plant('password on the CLI', `Cli-${randomBytes(12).toString('base64url')}`);
      await platform.cli([
        'user',
        'create',
        '--email',
        `cli-${randomBytes(3).toString('hex')}@drill.test`,
        '--password',
        cliPassword,
      ]);
      // Sign-out, then the old cookie again.
      await api(0).request('/api/auth/sign-out', { method: 'POST', headers: { cookie: owner.cookie }, body: {} });
      await api(1).request('/api/projects', { headers: { cookie: owner.cookie } });
      requests += 5;
      await new Promise((r) => setTimeout(r, 500)); // let the last lines reach the pipes

      const lines = platform
        .logs()
        .split('\n')
        .filter((l) => l.trim() !== '');
      log(`${requests} requests, ${secrets.size} secrets planted; searching ${lines.length} log lines`);
      const found: { what: string; line: string }[] = [];
      for (const line of lines) {
        for (const [value, what] of secrets) {
          if (line.includes(value) || line.includes(encodeURIComponent(value)))
            found.push({ what, line: line.slice(0, 300) });
        }
      }
      // Run after other drills with DRILL_LOG_DIR: their platforms' lines, searched for the credentials they used.
      let otherLines = 0;
      const otherDrills: string[] = [];
      for (const kept of keptLogs('secrets')) {
        otherDrills.push(kept.drill);
        const theirs = kept.logs.split('\n').filter((l) => l.trim() !== '');
        otherLines += theirs.length;
        const planted = kept.secrets.filter((s) => s.value.length >= 8);
        for (const line of theirs) {
          for (const { what, value } of planted)
            if (line.includes(value) || line.includes(encodeURIComponent(value)))
              found.push({ what: `${kept.drill}: ${what}`, line: line.slice(0, 300) });
        }
        for (const { what, value } of planted) secrets.set(value, `${kept.drill}: ${what}`);
      }
      const byKind: Record<string, number> = {};
      for (const what of secrets.values()) byKind[what] = (byKind[what] ?? 0) + 1;
      const foundByKind: Record<string, number> = {};
      for (const f of found) foundByKind[f.what] = (foundByKind[f.what] ?? 0) + 1;
      for (const f of found.slice(0, 20)) expect(false, `${f.what} in a log line: ${f.line}`);
      expect(found.length === 0, `${found.length} secret occurrence(s) in the logs`);
      const debugLines = lines.filter((l) => l.includes('"level":20')).length;
      Object.assign(figures, {
        requests,
        linesSearched: lines.length + otherLines,
        ownLines: lines.length,
        otherDrills,
        otherLines,
        debugLines,
        secretsPlanted: secrets.size,
        plantedByKind: byKind,
        found: found.length,
        foundByKind,
      });
    } finally {
      await platform.stop();
      await site.close();
      await hooks.close();
      await elsewhere.close();
      for (const m of Object.values(members)) await m.close();
    }
    return result(figures);
  },
};
