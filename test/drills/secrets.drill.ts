/**
 * Secrets: with LOG_LEVEL=debug on every process, users sign up and in (and fail to, with wrong passwords),
 * sessions and API keys are used, revoked and forged, credentials travel in every place a client puts them
 * (Authorization: Bearer and Basic, X-API-Key, cookies, a key or token in the query string, a reset token in
 * the path), errors are triggered (bad JSON around a password, 401s, 404s, GraphQL errors), an audit runs,
 * and the CLI creates a user. Then every line every process printed is searched for every planted secret:
 * passwords, full keys and their secret part, cookie values, session tokens, Authorization header values,
 * BETTER_AUTH_SECRET. Expected: 0 found.
 */
import { randomBytes } from 'node:crypto';
import { startFixtureSite } from '../fixtures/sites/index.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
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
} from './drill-http.js';

const SITE = 'secrets.drill.test';

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
    const platform = await startPlatform({
      apis: quick ? 1 : 2,
      workerGroups: 1,
      env: {
        LOG_LEVEL: 'debug',
        DEFAULT_PLAN: 'ENTERPRISE',
        SAFE_HTTP_ALLOW: SITE,
        SAFE_HTTP_RESOLVE: `${SITE}=127.0.0.1`,
        AUTH_FAILURES_PER_MINUTE: '10000',
        ANONYMOUS_RATE_PER_MINUTE: '10000',
      },
    });
    plant('BETTER_AUTH_SECRET', platform.env.BETTER_AUTH_SECRET);
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
        const password = plant('password', `Pw-${randomBytes(12).toString('base64url')}`);
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
          plant('API key', k.key);
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
    }
    return result(figures);
  },
};
