import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { useRedisPrefix } from '../support/redis-keys.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const seo = async (...args: string[]) => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout);
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('seo CLI for self-hosters (JSON output)', () => {
  it('migrate is idempotent', async () => {
    expect(await seo('migrate')).toEqual({ applied: [] });
  });

  it('user create → org create → org set-plan → api-key create gives a working key', async () => {
    const email = `admin-${uniq()}@example.test`;
    const created = await seo('user', 'create', '--email', email, '--password', 'a-long-password', '--name', 'Admin');
    expect(created.user).toMatchObject({ email, name: 'Admin' });
    expect(created.organizations).toHaveLength(1);

    const org = await seo('org', 'create', '--name', 'Agency', '--owner', email, '--plan', 'PRO');
    expect(org.organization).toMatchObject({ name: 'Agency', plan: 'PRO', slug: expect.stringMatching(/^agency-/) });

    const upgraded = await seo('org', 'set-plan', org.organization.slug, 'enterprise');
    expect(upgraded.organization).toMatchObject({ id: org.organization.id, plan: 'ENTERPRISE' });

    const { key, apiKey } = await seo('api-key', 'create', '--org', org.organization.id, '--name', 'deploy');
    expect(key).toMatch(/^seo_/);
    expect(apiKey.prefix).toBe(key.slice(0, 8));

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(200);
    const viewer = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { query: '{ viewer { via organization { id plan } } }' },
    });
    expect(viewer.json().data.viewer).toEqual({
      via: 'API_KEY',
      organization: { id: org.organization.id, plan: 'ENTERPRISE' },
    });
  }, 60_000);

  it('errors are a readable message and a non-zero exit, not a stack trace', async () => {
    const err = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'org', 'set-plan', 'no-such-org', 'PRO'],
      { cwd: root },
    ).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/error: organization "no-such-org" not found/);
    expect(err.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('seo audit <url> --json audits a site once with no database', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      if (req.url === '/') {
        res.setHeader('content-type', 'text/html');
        return res.end(
          '<!doctype html><html lang="en"><head><title>CLI fixture home page for the ' +
            'audit</title></head><body><h1>Hi</h1><a href="/gone">x</a></body></html>',
        );
      }
      res.statusCode = 404;
      res.end('nope');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const { stdout } = await run(
        process.execPath,
        [
          ...['--import', 'tsx', 'src/cli.ts', 'audit', `http://cli.test:${port}/`],
          ...['--max-pages', '5', '--json', '--all-occurrences'],
        ],
        {
          cwd: root,
          env: { ...process.env, SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: 'cli.test=127.0.0.1' },
        },
      );
      const out = JSON.parse(stdout);
      expect(out).toMatchObject({ status: 'COMPLETED', error: null, pagesFailed: 0 });
      expect(out.pagesCrawled).toBe(2);
      // The whole site fitted in --max-pages: nothing left, nothing said on stderr.
      expect(out).toMatchObject({ pagesDiscovered: 2, truncated: false, maxPages: 5, uncheckedLinks: [] });
      // --all-occurrences: every affected URL of each issue, with its evidence.
      expect(out.issues.find((i: { code: string }) => i.code === 'LINKS_INTERNAL_BROKEN').occurrences).toEqual([
        {
          url: `http://cli.test:${port}/`,
          evidence: { count: 1, links: [{ url: `http://cli.test:${port}/gone`, status: 404 }] },
        },
      ]);
      expect(out.scores.overall).toBeGreaterThan(0);
      const codes = out.issues.map((i: { code: string }) => i.code);
      expect(codes).toContain('LINKS_INTERNAL_BROKEN');
      // The 404 is listed under its status with its inlinks, and charged once, as the broken link's fix.
      const status = out.issues.find((i: { code: string }) => i.code === 'TECH_STATUS_4XX');
      expect(status).toMatchObject({ affectedPages: 1, chargedElsewhere: 1 });
      expect(out.issues.find((i: { code: string }) => i.code === 'LINKS_INTERNAL_BROKEN').fixes).toMatchObject({
        count: 1,
        summary: '1 target, linked from 1 page',
      });
      expect(out.scoreBreakdown.costs.map((c: { code: string }) => c.code)).not.toContain('TECH_STATUS_4XX');
      expect(out.counts).toMatchObject({ urlsCrawled: 2, htmlPages: 1, indexablePages: 1 });
      // A bare host:port is audited on the scheme it answers on (https first): this server speaks http only.
      const bare = await run(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'audit', `cli.test:${port}`, '--max-pages', '1', '--json'],
        {
          cwd: root,
          env: { ...process.env, SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: 'cli.test=127.0.0.1' },
        },
      );
      expect(JSON.parse(bare.stdout)).toMatchObject({
        url: `http://cli.test:${port}/`,
        status: 'COMPLETED',
        pagesCrawled: 1,
        pagesDiscovered: 2,
        truncated: true,
      });
      // A crawl the page cap cut says so, beside the JSON.
      expect(bare.stderr).toContain(
        'note: --max-pages 1 stopped the crawl: it covers the first 1 of at least 2 URLs found; the scores cover these',
      );
      // Without the allow-list, a private address is refused and nothing is fetched: a failed audit, exit code 2,
      // the reason on stderr and, with --json, the outcome on stdout (no score).
      const before = requests;
      const refused = await run(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'audit', `http://127.0.0.1:${port}/`, '--json'],
        { cwd: root },
      ).catch((e) => e);
      expect(refused.code).toBe(2);
      const reason =
        `Refused to fetch http://127.0.0.1:${port}/: 127.0.0.1 is a loopback address; only public sites can ` +
        `be audited (SAFE_HTTP_ALLOW admits private ones)`;
      expect(refused.stderr).toBe(`audit failed: ${reason}\n`);
      expect(JSON.parse(refused.stdout)).toEqual({
        url: `http://127.0.0.1:${port}/`,
        status: 'FAILED',
        error: reason,
        pagesCrawled: 0,
        pagesFailed: 0,
        scores: null,
        issues: [],
      });
      expect(requests).toBe(before);
    } finally {
      server.close();
    }
  }, 60_000);

  it('--all-occurrences lists every broken target of a page; the text says each cap as N of M', async () => {
    const pages = http.createServer((req, res) => {
      if (req.url !== '/') {
        res.statusCode = 404;
        return res.end('nope');
      }
      res.setHeader('content-type', 'text/html');
      res.end(
        '<!doctype html><html lang="en"><head><title>A page with many links to check for the CLI</title></head>' +
          '<body><h1>Links</h1>' +
          Array.from({ length: 7 }, (_, i) => `<a href="/gone-${i}">gone ${i}</a>`).join(' ') +
          Array.from({ length: 55 }, (_, i) => `<a href="http://ext.test:${extPort}/e${i}">e${i}</a>`).join(' ') +
          // Refused by our URL policy (user info): never fetched, not tried against the target.
          `<a href="http://author@ext.test:${extPort}/clone.git">clone</a>` +
          '</body></html>',
      );
    });
    let externalRequests = 0;
    const external = http.createServer((_req, res) => {
      externalRequests++;
      res.end('ok');
    });
    await new Promise<void>((r) => external.listen(0, '127.0.0.1', () => r()));
    const extPort = (external.address() as { port: number }).port;
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', () => r()));
    const port = (pages.address() as { port: number }).port;
    const audit = (...flags: string[]) =>
      run(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'audit', `http://many.test:${port}/`, '--max-pages', '20', ...flags],
        {
          cwd: root,
          env: {
            ...process.env,
            SAFE_HTTP_ALLOW: '127.0.0.1/32',
            SAFE_HTTP_RESOLVE: 'many.test=127.0.0.1,ext.test=127.0.0.1',
          },
        },
      );
    try {
      const out = JSON.parse((await audit('--json', '--all-occurrences')).stdout);
      const broken = out.issues.find((i: { code: string }) => i.code === 'LINKS_INTERNAL_BROKEN');
      // All 7 broken targets of the page, not the first 5.
      expect(broken.occurrences).toHaveLength(1);
      expect(broken.occurrences[0].evidence.count).toBe(7);
      expect(broken.occurrences[0].evidence.links).toHaveLength(7);
      // Every external link is checked (no budget of 50 any more); the one our policy refuses is said apart.
      expect(out.counts).toEqual({
        urlsCrawled: 8,
        htmlPages: 1,
        indexablePages: 1,
        externalLinks: {
          found: 56,
          checked: 55,
          couldNotCheck: 1,
          notTried: 0,
          refusedByPolicy: 1,
          addressCap: 0,
          noAnswer: 0,
          overCap: 0,
          outOfTime: 0,
          noNetwork: 0,
          fromCache: 0,
          pending: 0,
          workerStopped: 0,
        },
        resources: { found: 0, checked: 0 },
        labPages: { measured: 0, eligible: 1 },
        // Every link of the page read: none past the per-page cap.
        links: { found: 63, read: 63, notRead: 0, pagesOverCap: 0 },
      });
      expect(out.issues.find((i: { code: string }) => i.code === 'TECH_ROBOTS_MISSING').scope).toBe('site');

      const text = await audit();
      expect(text.stdout).toContain(`http://many.test:${port}/: 8 URLs crawled · 1 HTML page · 1 indexable\n`);
      expect(text.stdout).toContain(
        'checked: external links 55 of 56 (1 refused by policy) · resources 0 of 0 · lab vitals 0 of 1 pages\n',
      );
      // Site-level checks read "site", page-level ones their pages.
      expect(text.stdout).toMatch(/^NOTICE +TECH_ROBOTS_MISSING +site +/m);
      // A broken link is a WARNING on its page; its fixes (the 7 targets) are said on the same line.
      expect(text.stdout).toMatch(
        /^WARNING +LINKS_INTERNAL_BROKEN +1 page +Broken internal link \(7 targets in 1 place, linked from 1 page\)$/m,
      );
      expect(text.stderr).toContain(
        'note: 55 of 56 external links checked (the others are not counted as broken): 1 refused by policy; could ' +
          `not be checked: http://author@ext.test:${extPort}/clone.git (refused by policy: URLs with embedded ` +
          'credentials (user:password@host) are not allowed)\n',
      );
      // Each of the 55 once per run (HEAD answered 200): two runs of --json and text, 110 requests.
      expect(externalRequests).toBe(110);
    } finally {
      pages.close();
      external.close();
    }
  }, 90_000);

  it('seo audit exits 2, the reason on stderr, when the site cannot be audited (closed port, 500 page)', async () => {
    const server = http.createServer((req, res) => {
      res.statusCode = req.url === '/robots.txt' ? 404 : 500;
      res.end('boom');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const env = {
      ...process.env,
      LOG_LEVEL: 'silent',
      SAFE_HTTP_ALLOW: '127.0.0.1/32',
      SAFE_HTTP_RESOLVE: 'down.test=127.0.0.1,error.test=127.0.0.1',
    };
    try {
      const down = await run(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'audit', `http://down.test:${closedPort}/`],
        { cwd: root, env },
      ).catch((e) => e);
      expect(down.code).toBe(2);
      expect(down.stdout).toBe('');
      expect(down.stderr).toBe(
        `audit failed: Could not connect to http://down.test:${closedPort}/: connection refused\n`,
      );
      const error = await run(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'audit', `http://error.test:${port}/`, '--json'],
        { cwd: root, env },
      ).catch((e) => e);
      expect(error.code).toBe(2);
      expect(JSON.parse(error.stdout)).toMatchObject({
        status: 'FAILED',
        error: `http://error.test:${port}/ answered HTTP 500 (Internal Server Error)`,
        pagesCrawled: 1,
        scores: null,
      });
    } finally {
      server.close();
    }
  }, 60_000);
});

/** The installed command, as `npx seo` finds it after `npm ci` (the bin/ workspace's link in node_modules/.bin). */
const bin = resolve(root, 'node_modules/.bin/seo');
const seoBin = (args: string[], env: Record<string, string> = {}) =>
  run(bin, args, { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent', ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('seo as users expect it', () => {
  const version = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }).version;

  it('is on the PATH of npm scripts after npm ci and prints its version (also via npm run --silent)', async () => {
    expect(await seoBin(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const viaNpm = await run('npm', ['run', '--silent', 'seo', '--', '--version'], { cwd: root });
    expect(viaNpm.stdout).toBe(`${version}\n`);
  }, 60_000);

  it('--help describes every command and documents the exit codes; each command has its own help', async () => {
    const top = await seoBin(['--help']);
    expect(top.code).toBe(0);
    for (const command of ['migrate', 'serve', 'worker', 'start', 'user', 'org', 'api-key', 'audit'])
      expect(top.stdout).toMatch(new RegExp(`\\n  ${command}\\b.*\\S`));
    expect(top.stdout).toMatch(
      /Exit codes:[\s\S]*1 {2}the --fail-under gate tripped[\s\S]*2 {2}the audit failed, or bad usage/,
    );
    const audit = await seoBin(['audit', '--help']);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/Usage: seo audit \[options\] <url>/);
    expect(audit.stdout).toMatch(
      /--fail-under <score> +exit with code 1 when the overall score is\s+below this,\s+0-100/,
    );
    const org = await seoBin(['org', '--help']);
    expect(org.stdout).toMatch(/set-plan.*change an organization's plan/);
  }, 60_000);

  it('bad usage exits 2 with a clear message: --fail-under out of 0-100 or not a number, bad commands', async () => {
    for (const value of ['200', '-1', 'abc', '', '80%']) {
      const r = await seoBin(['audit', 'https://example.invalid/', '--fail-under', value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`argument '${value}' is invalid. "${value}" is not a score from 0 to 100.`);
      expect(r.stdout).toBe('');
    }
    const unknown = await seoBin(['audti']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'audti'/);
  }, 90_000);

  it('seo worker refuses an unknown queue, seo start an invalid configuration: code 2 and the reason', async () => {
    const worker = await seoBin(['worker', 'audit', 'ranks']);
    expect(worker).toMatchObject({ code: 2, stdout: '' });
    expect(worker.stderr).toContain('unknown queue ranks; use audit, rank, competitor, alert');
    // The supervisor validates no configuration itself: its `seo migrate` child does, and `start` ends as it did.
    const start = await seoBin(['start'], { PORT: 'eighty' });
    expect(start).toMatchObject({ code: 2, stdout: '' });
    expect(start.stderr).toMatch(/PORT/);
  }, 60_000);

  it('--fail-under trips with exit code 1 and says why; at or below the score it passes', async () => {
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        '<!doctype html><html lang="en"><head><title>Gate fixture page</title></head><body><p>short</p></body></html>',
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const env = { SAFE_HTTP_ALLOW: '127.0.0.1/32', SAFE_HTTP_RESOLVE: 'gate.test=127.0.0.1' };
    try {
      const tripped = await seoBin(
        ['audit', `http://gate.test:${port}/`, '--max-pages', '1', '--json', '--fail-under', '99.5'],
        env,
      );
      const score = JSON.parse(tripped.stdout).scores.overall as number;
      expect(score).toBeLessThan(99.5);
      expect(tripped.code).toBe(1);
      expect(tripped.stderr).toContain(`seo audit: overall score ${score} is below --fail-under 99.5`);
      const passed = await seoBin(
        ['audit', `http://gate.test:${port}/`, '--max-pages', '1', '--json', '--fail-under', String(score)],
        env,
      );
      expect(passed.code).toBe(0);
      expect(passed.stderr).not.toMatch(/below/);
    } finally {
      server.close();
    }
  }, 90_000);
});

describe('seo audit into a pipe that closes early', () => {
  it('ends quietly with 0 when the reader has gone (`| head`), in text and in JSON', async () => {
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        '<!doctype html><html lang="en"><head><title>Pipe fixture page</title></head><body><p>x</p></body></html>',
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      for (const json of [false, true]) {
        const child = spawn(
          bin,
          ['audit', `http://pipe.test:${port}/`, '--max-pages', '1', ...(json ? ['--json'] : [])],
          {
            cwd: root,
            env: {
              ...process.env,
              LOG_LEVEL: 'silent',
              SAFE_HTTP_ALLOW: '127.0.0.1/32',
              SAFE_HTTP_RESOLVE: 'pipe.test=127.0.0.1',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        // The reader goes away before the command writes anything, as `head` does once it has its lines.
        child.stdout.destroy();
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const [code] = (await once(child, 'exit')) as [number | null];
        expect({ json, code, stderr }).toEqual({ json, code: 0, stderr: '' });
      }
    } finally {
      server.close();
    }
  }, 90_000);
});

/**
 * The platform processes whose parent is `pid`: those with a role in their environment (SEO_PROCESS, which the
 * supervisor gives its children). Others may be there: tsx's esbuild service, started on a cold transform cache.
 */
function platformChildrenOf(pid: number): { pid: number; role: string }[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) return [];
        const env = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
        const role = env.find((e) => e.startsWith('SEO_PROCESS='))?.slice('SEO_PROCESS='.length);
        return role ? [{ pid: Number(d), role }] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return condition();
}

/** `seo start` on a free port and its own Redis prefix, its own process group; its output gathered. */
async function startPlatform() {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const prefix = useRedisPrefix(`t-start-${uniq()}`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), REDIS_PREFIX: prefix, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, stopped as a whole at the end
  });
  const output = { text: '' };
  child.stdout.on('data', (d) => (output.text += String(d)));
  child.stderr.on('data', (d) => (output.text += String(d)));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const ready = await until(() => /^Ready: /m.test(output.text) || child.exitCode !== null, 150_000);
  expect(ready && child.exitCode === null, output.text.slice(-2000)).toBe(true);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  };
  return { child, port, output, exited, stop };
}

describe('seo start (first run)', () => {
  it('prints a plain "Ready: open <url>" line once the API listens and the workers run', async () => {
    const { child, port, output, exited, stop } = await startPlatform();
    try {
      const lines = output.text.split('\n');
      const readyAt = lines.findIndex((l) => l.startsWith('Ready: '));
      expect(lines[readyAt], output.text.slice(-2000)).toBe(`Ready: open http://127.0.0.1:${port}`);
      // Both said they were up (their log lines and the "Ready" line come through different pipes, so their order
      // in the output is not theirs: on a loaded machine the API's line came after "Ready").
      await until(() => output.text.includes('"API listening"') && output.text.includes('"worker ready"'), 10_000);
      expect(output.text).toContain('"API listening"');
      expect(output.text).toContain('"worker ready"');
      const ready = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(ready.status).toBe(200);

      // Two processes: `seo start` is the API and supervises the worker, its one child.
      const [worker, ...others] = platformChildrenOf(child.pid!);
      expect({ role: worker?.role, others: others.length }).toEqual({ role: 'worker', others: 0 });
      // A worker killed is started again (1 s backoff) while the API keeps answering.
      process.kill(worker.pid, 'SIGKILL');
      const restarted = await until(() => platformChildrenOf(child.pid!).some((c) => c.pid !== worker.pid), 15_000);
      expect(restarted, output.text.slice(-2000)).toBe(true);
      expect(output.text).toContain('a platform process exited; restarting it');
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
      await until(() => (output.text.match(/"worker ready"/g) ?? []).length >= 2, 60_000);
      const [second] = platformChildrenOf(child.pid!);

      // SIGTERM to the API alone: it closes, then stops the worker, waits for it and exits 0.
      process.kill(child.pid!, 'SIGTERM');
      const [code] = await exited;
      expect(code, output.text.slice(-2000)).toBe(0);
      expect(alive(second.pid)).toBe(false);
      expect(output.text).toContain('"worker stopped"');
    } finally {
      await stop();
    }
    expect(output.text.match(/^Ready: /gm)).toHaveLength(1);
  }, 240_000);

  it('a worker whose API was killed outright stops by itself instead of running unsupervised', async () => {
    const { child, output, stop } = await startPlatform();
    try {
      await until(() => output.text.includes('"worker ready"'), 60_000);
      const [worker] = platformChildrenOf(child.pid!);
      expect(worker?.role).toBe('worker');
      process.kill(child.pid!, 'SIGKILL');
      // Its IPC channel closes: the worker shuts down as on SIGTERM (run-worker.ts), not as an orphan.
      expect(await until(() => !alive(worker.pid), 30_000), output.text.slice(-2000)).toBe(true);
      expect(output.text).toContain('"worker stopped"');
    } finally {
      await stop();
    }
  }, 240_000);
});
