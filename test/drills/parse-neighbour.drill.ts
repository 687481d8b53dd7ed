/**
 * A hostile neighbour in the page analysis threads (issue 61, findings 3, 4 and 7). Organization A audits a
 * site of hostile pages — 100,000 nested `div`s, a 5 MiB page of tiny elements read by a CSS extractor `*` on A's
 * project, several deeply nested pages — while organization B audits an ordinary site on the same worker process.
 * Figures: B's audit time quiet and attacked (expected within 1.5×), B's audit claimed once (its `attempts`) and
 * completed, A's audit ending with honest per-page failures ("Page too complex to analyse") rather than "job
 * stalled", and the gaps between B's heartbeats while attacked (the worker's main loop answering: a parse on it
 * would stop the beats).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';
import {
  apiClient,
  keepLogs,
  must,
  sessionSecrets,
  signUp,
  sleep,
  waitForAudit,
  type ApiClient,
} from './drill-http.js';

const ATTACKER = 'attacker.parse.drill.test';
const VICTIM = 'victim.parse.drill.test';
const MiB = 1024 * 1024;
const HEARTBEAT_MS = 1_000;
/** B's audit attacked may take this much longer than quiet. */
const SLOWDOWN_BUDGET = 1.5;
/** The quick form's victim audit is too short for a ratio to mean much: its budget is also this many ms over quiet. */
const SMALL_AUDIT_SLACK_MS = 3_000;

/** The hostile site: every page linked from the start page. */
function hostilePages(deepPages: number): Map<string, () => string> {
  const pages = new Map<string, () => string>();
  const nested = (n: number) => `${'<div>'.repeat(n)}<a href="/">home</a>${'</div>'.repeat(n)}`;
  const links = ['/nested-100k', '/tiny-5mib', ...Array.from({ length: deepPages }, (_, i) => `/deep-${i}`)];
  pages.set(
    '/',
    () =>
      '<!doctype html><html><head><title>Hostile</title></head><body>' +
      links.map((l) => `<a href="${l}">${l}</a>`).join(' ') +
      '</body></html>',
  );
  pages.set('/nested-100k', () => `<!doctype html><html><body>${nested(100_000)}</body></html>`);
  // 5 MiB of the smallest elements with text: with a tree extractor, more memory and time than one page may take.
  pages.set('/tiny-5mib', () => `<!doctype html><html><body>${'<p>x'.repeat(Math.floor((5 * MiB - 40) / 4))}</body>`);
  for (let i = 0; i < deepPages; i++)
    pages.set(`/deep-${i}`, () => `<!doctype html><html><body>${nested(20_000 + i * 5_000)}</body></html>`);
  return pages;
}

/** An ordinary site: `count` pages, each linking to three below it and the next one (all within 6 clicks). */
function ordinaryPage(n: number, count: number): string {
  const targets = [3 * n + 1, 3 * n + 2, 3 * n + 3, n + 1].filter((m) => m < count);
  const links = targets.map((m) => `<li><a href="/p/${m}">Page ${m}</a></li>`);
  return (
    `<!doctype html><html lang="en"><head><title>Ordinary page ${n}</title>` +
    `<meta name="description" content="Page ${n} of an ordinary site, for the neighbour drill."></head>` +
    `<body><header><nav><ul>${links.join('')}</ul></nav></header><main><h1>Page ${n}</h1>` +
    `${'<p>Some ordinary text about the subject of this page, with a few words in it.</p>'.repeat(20)}` +
    '</main><footer>footer</footer></body></html>'
  );
}

async function serve(handler: (path: string) => string | null): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\n');
    const body = handler(path);
    if (body === null) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

interface AuditRun {
  id: string;
  status: string;
  error: string | null;
  /** From its creation to its completion, as recorded (see recordedMs). */
  ms: number;
  pagesCrawled: number | null;
}

/**
 * An audit's time as the platform recorded it, from its creation (the request; its wait in the queue included) to its
 * completion: the 250 ms of the client's polling are not in it.
 */
async function recordedMs(platform: Platform, auditId: string): Promise<number | null> {
  const [row] = await platform.sql<{ ms: number | null }>(
    'select round(extract(epoch from completed_at - created_at) * 1000)::int as ms from audit where id = $1',
    [auditId],
  );
  return row?.ms ?? null;
}

async function runAudit(
  platform: Platform,
  api: ApiClient,
  cookie: string,
  projectId: string,
  timeoutMs: number,
): Promise<AuditRun> {
  const started = must(
    await api.request(`/api/projects/${projectId}/audit`, { method: 'POST', headers: { cookie } }),
    200,
    'audit',
  );
  const { audit, ms } = await waitForAudit(api, cookie, projectId, started.auditId, timeoutMs);
  return {
    id: started.auditId as string,
    status: audit?.status ?? 'unknown',
    error: audit?.error ?? null,
    ms: (await recordedMs(platform, started.auditId)) ?? Math.round(ms),
    pagesCrawled: audit?.pagesCrawled ?? null,
  };
}

/** Samples an audit's heartbeat until stopped: the longest wait between two beats seen, in ms. */
function heartbeatGaps(platform: Platform, auditId: string): { stop(): Promise<{ maxGapMs: number; beats: number }> } {
  let running = true;
  const beats: number[] = [];
  const done = (async () => {
    while (running) {
      const [row] = await platform
        .sql<{ at: Date | null }>('select heartbeat_at as at from audit where id = $1', [auditId])
        .catch(() => [{ at: null }]);
      const at = row?.at ? new Date(row.at).getTime() : null;
      if (at !== null && beats.at(-1) !== at) beats.push(at);
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      let maxGapMs = 0;
      for (let i = 1; i < beats.length; i++) maxGapMs = Math.max(maxGapMs, beats[i] - beats[i - 1]);
      return { maxGapMs, beats: beats.length };
    },
  };
}

export const drill: Drill = {
  description:
    'an organization audits hostile pages (deep nesting, 5 MiB of tiny elements + CSS extractor) beside ' +
    'another organization\u2019s ordinary audit on the same worker: the victim is not failed, restarted or slowed',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const victimPages = quick ? 60 : 1_500;
    const hostile = hostilePages(quick ? 3 : 8);
    const attackerSite = await serve((path) => hostile.get(path)?.() ?? null);
    const victimSite = await serve((path) => {
      if (path === '/') return ordinaryPage(0, victimPages);
      const m = /^\/p\/(\d+)$/.exec(path);
      return m && Number(m[1]) < victimPages ? ordinaryPage(Number(m[1]), victimPages) : null;
    });
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: {
        DEFAULT_PLAN: 'FREE',
        SAFE_HTTP_ALLOW: `${ATTACKER},${VICTIM}`,
        SAFE_HTTP_RESOLVE: `${ATTACKER}=127.0.0.1,${VICTIM}=127.0.0.1`,
        ANONYMOUS_RATE_PER_MINUTE: '100000',
        WORKER_CONCURRENCY: '2',
        AUDIT_PARSE_THREADS: '1',
        AUDIT_HEARTBEAT_MS: String(HEARTBEAT_MS),
      },
    });
    const figures: Record<string, unknown> = { victimPages, hostilePages: [...hostile.keys()].length };
    const credentials: { what: string; value: string }[] = [];
    try {
      const api = apiClient(platform.apis[0].baseUrl);
      const stamp = Date.now();
      const a = await signUp(api, `attacker-${stamp}@drill.test`, `pw-${randomBytes(9).toString('hex')}`);
      const b = await signUp(api, `victim-${stamp}@drill.test`, `pw-${randomBytes(9).toString('hex')}`);
      credentials.push(
        { what: 'password', value: a.password },
        { what: 'password', value: b.password },
        ...sessionSecrets(a.cookie, 'session'),
        ...sessionSecrets(b.cookie, 'session'),
      );
      // Projects through /api need the Enterprise plan's API access (the Free plan has the free tools only); what
      // is drilled here, the shared page analysis threads, does not depend on the plan.
      await platform.sql(`update organization set plan = 'ENTERPRISE' where id = any($1)`, [
        [a.organizationId, b.organizationId],
      ]);
      const project = async (cookie: string, url: string, name: string) =>
        must(
          await api.request('/api/projects', { method: 'POST', headers: { cookie }, body: { url, name } }),
          200,
          name,
        ).project.id as string;
      const aProject = await project(a.cookie, `http://${ATTACKER}:${attackerSite.port}/`, 'hostile');
      const bProject = await project(b.cookie, `http://${VICTIM}:${victimSite.port}/`, 'ordinary');
      const added = await api.gql(
        'mutation($p: ID!, $i: CustomExtractorInput!) { addExtractor(projectId: $p, input: $i) { id } }',
        { p: aProject, i: { name: 'everything', kind: 'CSS', expression: '*', output: 'TEXT', match: 'ALL' } },
        { cookie: a.cookie },
      );
      expect(!!added.json?.data?.addExtractor?.id, `the attacker's CSS extractor was refused: ${added.text}`);

      // Quiet: B alone (a first audit warms the worker and its threads up).
      const timeout = quick ? 55_000 : 600_000;
      await runAudit(platform, api, b.cookie, bProject, timeout);
      const quiet = await runAudit(platform, api, b.cookie, bProject, timeout);
      log(`victim quiet: ${quiet.status} in ${quiet.ms} ms, ${quiet.pagesCrawled} pages`);

      // Attacked: A's audit starts first, B's a moment later, while A's hostile pages are in the threads.
      const attack = runAudit(platform, api, a.cookie, aProject, timeout);
      await sleep(500);
      const victimStarted = must(
        await api.request(`/api/projects/${bProject}/audit`, { method: 'POST', headers: { cookie: b.cookie } }),
        200,
        'victim audit',
      );
      const victimId = victimStarted.auditId as string;
      const beats = heartbeatGaps(platform, victimId);
      const waited = await waitForAudit(api, b.cookie, bProject, victimId, timeout);
      const gaps = await beats.stop();
      const attacked: AuditRun = {
        id: victimId,
        status: waited.audit?.status ?? 'unknown',
        error: waited.audit?.error ?? null,
        ms: (await recordedMs(platform, victimId)) ?? Math.round(waited.ms),
        pagesCrawled: waited.audit?.pagesCrawled ?? null,
      };
      const attacker = await attack;
      log(`victim attacked: ${attacked.status} in ${attacked.ms} ms, ${attacked.pagesCrawled} pages`);
      log(`attacker: ${attacker.status} in ${attacker.ms} ms — ${attacker.error ?? '(no error)'}`);

      const [victimRow] = await platform.sql<{ attempts: number; status: string }>(
        'select attempts, status from audit where id = $1',
        [victimId],
      );
      const [attackerRow] = await platform.sql<{ attempts: number; pages_failed: number | null }>(
        'select attempts, pages_failed from audit where id = $1',
        [attacker.id],
      );
      const failedPages = await platform.sql<{ url: string; error: string | null }>(
        'select url, error from audit_page where audit_id = $1 and error is not null',
        [attacker.id],
      );
      const tooComplex = failedPages.filter((p) => /^Page too complex to analyse/.test(p.error ?? ''));
      for (const p of failedPages) log(`attacker page ${p.url}: ${p.error}`);

      const ratio = attacked.ms / Math.max(1, quiet.ms);
      // The full form holds the ratio itself; the quick form's short audit gets the slack.
      const budgetMs = quick
        ? Math.max(quiet.ms * SLOWDOWN_BUDGET, quiet.ms + SMALL_AUDIT_SLACK_MS)
        : quiet.ms * SLOWDOWN_BUDGET;
      expect(quiet.status === 'COMPLETED', `victim quiet audit: ${quiet.status} (${quiet.error})`);
      expect(attacked.status === 'COMPLETED', `victim attacked audit: ${attacked.status} (${attacked.error})`);
      expect(
        attacked.ms <= budgetMs,
        `victim audit attacked took ${attacked.ms} ms, quiet ${quiet.ms} ms (×${ratio.toFixed(2)}, budget ×1.5)`,
      );
      expect(victimRow?.attempts === 1, `victim audit claimed ${victimRow?.attempts} times (restarted)`);
      expect(attacker.status === 'COMPLETED', `attacker audit: ${attacker.status} (${attacker.error})`);
      expect(!/stalled/i.test(attacker.error ?? ''), `attacker audit failed as stalled: ${attacker.error}`);
      expect(attackerRow?.attempts === 1, `attacker audit claimed ${attackerRow?.attempts} times`);
      expect(
        tooComplex.some((p) => p.url.endsWith('/tiny-5mib')),
        'the 5 MiB page of tiny elements was not recorded as too complex to analyse',
      );
      expect(
        gaps.maxGapMs <= HEARTBEAT_MS * 3,
        `victim heartbeat gap ${gaps.maxGapMs} ms (beats every ${HEARTBEAT_MS} ms)`,
      );
      expect(platform.workers[0].alive(), 'the worker group died');
      const inlineWarnings = platform.logs().match(/page analysis threads unavailable/g)?.length ?? 0;
      expect(inlineWarnings === 0, 'page analysis threads did not start');
      Object.assign(figures, {
        victimQuietMs: quiet.ms,
        victimAttackedMs: attacked.ms,
        slowdown: +ratio.toFixed(2),
        victimAttempts: victimRow?.attempts,
        victimHeartbeat: { everyMs: HEARTBEAT_MS, maxGapMs: gaps.maxGapMs, beatsSeen: gaps.beats },
        attacker: {
          status: attacker.status,
          error: attacker.error,
          ms: attacker.ms,
          attempts: attackerRow?.attempts,
          pagesCrawled: attacker.pagesCrawled,
          pagesFailed: attackerRow?.pages_failed,
          failedPages: failedPages.map((p) => ({ path: new URL(p.url).pathname, error: p.error })),
        },
      });
    } finally {
      keepLogs('parse-neighbour', platform.logs(), credentials);
      await platform.stop();
      await new Promise((r) => attackerSite.server.close(r));
      await new Promise((r) => victimSite.server.close(r));
    }
    return result(figures);
  },
};
