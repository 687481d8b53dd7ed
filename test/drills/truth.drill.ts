/**
 * Truth drill (issue 18, point 1 and 4, findings 1-2): against the built platform (an API process and a `seo worker`
 * group), sites that cannot be audited — a closed port, an unresolvable host, a name resolving to a private address, a
 * 500 and a 404 start page, a start URL redirecting to 169.254.169.254, robots.txt `Disallow: /` — must end FAILED with
 * a reason naming the URL, no scores and one attempt; refused project URLs must be 400; `seo audit` must exit 2 on a
 * failed audit and give the same numbers as the server on a healthy site. Quick: `npm run drill -- truth --quick`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function site(handler: Handler) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    requests,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A healthy generated site of `pages` pages (links in a tree and a chain, some thin, some untitled, some broken). */
function generated(pages: number): Handler {
  return (req, res) => {
    const path = req.url ?? '/';
    setTimeout(
      () => {
        if (path === '/robots.txt') return res.end('User-agent: *\nAllow: /\n');
        const m = /^\/(?:p\/([1-9]\d*))?$/.exec(path);
        const n = m ? Number(m[1] ?? 0) : -1;
        if (n < 0 || n >= pages) {
          res.statusCode = 404;
          return res.end();
        }
        const href = (k: number) => (k % pages === 0 ? '/' : `/p/${k % pages}`);
        const links =
          [n + 1, 2 * n + 1, 2 * n + 2].map((k) => `<a href="${href(k)}">Page ${k}</a>`).join(' ') +
          (n % 10 === 0 ? ' <a href="/gone">Gone</a>' : '');
        const title = n % 7 === 0 ? '' : `<title>Page number ${n} of the drill's generated site</title>`;
        res.setHeader('content-type', 'text/html');
        res.end(
          `<!doctype html><html lang="en"><head>${title}</head><body><h1>P${n}</h1>` +
            `<p>${'word '.repeat(n % 4 ? 250 : 30)}</p>${links}</body></html>`,
        );
      },
      Math.floor(Math.random() * 20),
    );
  };
}

export const drill: Drill = {
  description:
    'sites that cannot be audited end FAILED with the reason on every surface; CLI exit 2; CLI and server agree',
  async run({ quick, log }) {
    const e = expectations();
    const id = randomBytes(3).toString('hex');
    const h = (name: string) => `${name}-${id}.test`;
    const closed = await site(() => undefined);
    const closedPort = closed.port;
    await closed.close();
    const sites = {
      error500: await site((req, res) => {
        res.statusCode = req.url === '/robots.txt' ? 404 : 500;
        res.end();
      }),
      missing: await site((_req, res) => {
        res.statusCode = 404;
        res.end();
      }),
      redirect: await site((req, res) => {
        res.statusCode = req.url === '/robots.txt' ? 404 : 302;
        if (req.url !== '/robots.txt') res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
        res.end();
      }),
      robots: await site((req, res) => {
        if (req.url === '/robots.txt') return res.end('User-agent: *\nDisallow: /\n');
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><title>never</title>');
      }),
      healthy: await site(generated(quick ? 60 : 300)),
    };
    const pins = ['refused', 'error500', 'missing', 'redirect', 'robots', 'healthy']
      .map((n) => `${h(n)}=127.0.0.1`)
      .concat(`${h('private')}=10.0.0.1`);
    const env = {
      SAFE_HTTP_ALLOW: '127.0.0.1/32',
      SAFE_HTTP_RESOLVE: pins.join(','),
      DEFAULT_PLAN: 'ENTERPRISE',
      WORKER_CONCURRENCY: '2',
    };
    const platform = await startPlatform({ apis: 1, workerGroups: 1, env });
    const figures: Record<string, unknown> = {};
    try {
      const email = `truth-${id}@example.test`;
      const created = await platform.cli<{ organizations: { id: string }[] }>([
        'user',
        'create',
        '--email',
        email,
        '--password',
        'a-long-drill-password',
      ]);
      const { key } = await platform.cli<{ key: string }>([
        'api-key',
        'create',
        '--org',
        created.organizations[0].id,
        '--name',
        'truth',
      ]);
      const base = platform.apis[0].baseUrl;
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: (await res.json()) as Record<string, any> };
      };
      const graphql = (query: string, variables: Record<string, unknown>) =>
        call('POST', '/graphql', { query, variables });
      const createProject = (url: string) =>
        graphql('mutation($u: String!) { createProject(input: { url: $u }) { id } }', { u: url });

      // Finding 1: refused targets at creation.
      const refusedAtCreation: Record<string, string> = {};
      for (const url of ['http://169.254.169.254/', 'http://10.0.0.1/', 'http://metadata.google.internal/']) {
        const r = await createProject(url);
        refusedAtCreation[url] = r.body.errors?.[0]?.extensions?.code ?? 'ACCEPTED';
        e.expect(
          refusedAtCreation[url] === 'BAD_USER_INPUT',
          `createProject(${url}) must be refused, got ${refusedAtCreation[url]}`,
        );
      }
      figures.refusedAtCreation = refusedAtCreation;

      // Point 1: start URLs that cannot be audited.
      const cases: Record<string, { url: string; error: RegExp }> = {
        refused: {
          url: `http://${h('refused')}:${closedPort}/`,
          error: /^Could not connect to .*: connection refused$/,
        },
        dns: { url: `http://nowhere-${id}.invalid/`, error: /^Could not resolve the host of / },
        privateName: {
          url: `http://${h('private')}/`,
          // The reason, without what the name resolved to on our network.
          error: /resolves to an address that is not allowed \(private, loopback or reserved\)/,
        },
        error500: { url: `http://${h('error500')}:${sites.error500.port}/`, error: /answered HTTP 500/ },
        missing: { url: `http://${h('missing')}:${sites.missing.port}/`, error: /answered HTTP 404/ },
        redirectToMetadata: {
          url: `http://${h('redirect')}:${sites.redirect.port}/`,
          error: /redirects to http:\/\/169\.254\.169\.254\/.*link-local/,
        },
        robotsDisallow: { url: `http://${h('robots')}:${sites.robots.port}/`, error: /^robots\.txt of .* disallows / },
      };
      const outcomes: Record<string, unknown> = {};
      const started: { name: string; projectId: string; jobId: string; at: number }[] = [];
      for (const [name, c] of Object.entries(cases)) {
        const p = await createProject(c.url);
        const projectId = p.body.data?.createProject?.id;
        if (!e.expect(!!projectId, `${name}: project ${c.url} could not be created: ${JSON.stringify(p.body.errors)}`))
          continue;
        const s = await call('POST', `/api/v1/projects/${projectId}/audit`);
        started.push({ name, projectId, jobId: s.body.jobId, at: Date.now() });
      }
      for (const s of started) {
        let audit: Record<string, any> = {};
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline) {
          audit = (await call('GET', `/api/v1/projects/${s.projectId}/audit`)).body.audit ?? {};
          if (!['QUEUED', 'RUNNING'].includes(audit.status)) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        const seconds = (Date.now() - s.at) / 1000;
        const job = (await call('GET', `/api/v1/jobs/${s.jobId}`)).body.job;
        const g = (
          await graphql('query($p: ID!) { audit(projectId: $p) { status error overallScore } }', { p: s.projectId })
        ).body.data?.audit;
        const [row] = await platform.sql<{ attempts: number }>('SELECT attempts FROM audit WHERE id = $1', [audit.id]);
        const scoresNull = [
          'overallScore',
          'metaScore',
          'contentScore',
          'linksScore',
          'technicalScore',
          'performanceScore',
        ].every((k) => audit[k] === null);
        outcomes[s.name] = {
          status: audit.status,
          error: audit.error,
          attempts: row?.attempts,
          jobState: job?.state,
          seconds: Number(seconds.toFixed(2)),
        };
        e.expect(audit.status === 'FAILED', `${s.name}: status ${audit.status}, expected FAILED`);
        e.expect(
          cases[s.name].error.test(audit.error ?? ''),
          `${s.name}: error ${JSON.stringify(audit.error)} does not name the cause`,
        );
        if (s.name === 'privateName')
          e.expect(
            !/10\.0\.0\.1|private network address/.test(audit.error ?? ''),
            `privateName: the error tells what the name resolves to: ${audit.error}`,
          );
        e.expect(scoresNull, `${s.name}: a failed audit has scores`);
        e.expect(row?.attempts === 1, `${s.name}: ${row?.attempts} attempts, expected 1 (not retried)`);
        e.expect(job?.state === 'failed' && job?.error === audit.error, `${s.name}: job ${JSON.stringify(job)}`);
        e.expect(
          g?.status === 'FAILED' && g?.error === audit.error && g?.overallScore === null,
          `${s.name}: GraphQL says ${JSON.stringify(g)}`,
        );
        log(`${s.name}: ${audit.status} in ${seconds.toFixed(1)} s — ${audit.error}`);
      }
      figures.failedAudits = outcomes;
      figures.robotsDisallowRequests = sites.robots.requests;
      e.expect(
        JSON.stringify(sites.robots.requests) === JSON.stringify(['GET /robots.txt']),
        `Disallow: / site received ${JSON.stringify(sites.robots.requests)}`,
      );

      // The CLI: exit code 2 and the reason for a failed audit.
      const cliFailed = await platform.cliRun(['audit', cases.refused.url]);
      figures.cliFailedAudit = { code: cliFailed.code, stderr: cliFailed.stderr.trim() };
      e.expect(
        cliFailed.code === 2 &&
          /^audit failed: Could not connect to .*: connection refused$/.test(cliFailed.stderr.trim()),
        `seo audit of a closed port: ${JSON.stringify(figures.cliFailedAudit)}`,
      );

      // Point 4: the CLI and the server give the same numbers for the same site (with a page budget below its size).
      const maxPages = quick ? 40 : 200;
      const url = `http://${h('healthy')}:${sites.healthy.port}/`;
      const cli = JSON.parse((await platform.cliRun(['audit', url, '--max-pages', String(maxPages), '--json'])).stdout);
      const p = await createProject(url);
      const projectId = p.body.data.createProject.id;
      await graphql(
        'mutation($id: ID!, $n: Int!) { updateProject(id: $id, input: { settings: { maxPages: $n } }) { id } }',
        { id: projectId, n: maxPages },
      );
      await call('POST', `/api/v1/projects/${projectId}/audit`);
      let server: Record<string, any> = {};
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        server = (await call('GET', `/api/v1/projects/${projectId}/audit`)).body.audit ?? {};
        if (!['QUEUED', 'RUNNING'].includes(server.status)) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      const serverScores = {
        overall: server.overallScore,
        meta: server.metaScore,
        content: server.contentScore,
        links: server.linksScore,
        technical: server.technicalScore,
        performance: server.performanceScore,
      };
      const counts = (issues: { code: string; affectedPages: number }[] = []) =>
        Object.fromEntries(issues.map((i) => [i.code, i.affectedPages]).sort());
      figures.parity = { pages: [cli.pagesCrawled, server.pagesCrawled], cli: cli.scores, server: serverScores };
      e.expect(
        JSON.stringify(cli.scores) === JSON.stringify(serverScores),
        `scores differ: CLI ${JSON.stringify(cli.scores)}, server ${JSON.stringify(serverScores)}`,
      );
      e.expect(
        JSON.stringify(counts(cli.issues)) === JSON.stringify(counts(server.issues)),
        `issue counts differ: CLI ${JSON.stringify(counts(cli.issues))}, ` +
          `server ${JSON.stringify(counts(server.issues))}`,
      );
      e.expect(
        cli.pagesCrawled === server.pagesCrawled,
        `pages differ: CLI ${cli.pagesCrawled}, server ${server.pagesCrawled}`,
      );
      log(
        `parity: CLI ${JSON.stringify(cli.scores)} / server ${JSON.stringify(serverScores)} ` +
          `over ${cli.pagesCrawled} pages`,
      );
    } finally {
      await platform.stop();
      for (const s of Object.values(sites)) await s.close();
    }
    return e.result(figures);
  },
};
