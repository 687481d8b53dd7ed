/**
 * Faults under running audits, on the drill's own PostgreSQL cluster (initdb under /tmp, own port) and own
 * redis-server (own port, no persistence), so nothing shared is touched. One API process and two worker groups
 * (`seo worker`: supervisor + the worker process of every queue) audit a local generated site of slow pages, then:
 *   A. kill -9 of the audit worker process running an audit;
 *   B. Redis stopped (20 s; quick 5 s) and started again EMPTY (its jobs are gone);
 *   R. Redis restarted EMPTY 10 s into a 200-page audit (the issue's drill): its worker is alive, so the audit ends
 *      with one attempt and each page requested once (its heartbeat keeps the sweeper from starting it again);
 *   C. PostgreSQL stopped (10 s; quick 3 s) and started again;
 *   L. Redis stopped while an audit completes (issue 47): its SCORE_DROP alert is evaluated once and its webhook sent
 *      once, after Redis is back (started empty);
 *   F. FLUSHALL between a webhook's attempts 1 and 2: attempt 2 still comes, late, and once.
 * During each outage the API is asked continuously (Surface A, a free tool, the job endpoint): every answer must be
 * a 503 UNAVAILABLE with Retry-After in the documented shape (or a 200 the outage does not concern), within ~1 s.
 * Expectations: every audit ends COMPLETED or FAILED with a reason (none stuck), the audits of B and R after one
 * attempt, completed audits hold exactly the site's pages and the same issue occurrences as each other (0 lost, 0
 * duplicated rows), the API answers 200 after each outage without a restart, the worker groups are still up.
 * Figures: recovery times, request outcomes during outages by status, audits' end states, R's attempts and requests,
 * L's and F's webhooks and how late they came.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { generatedSite } from '../fixtures/sites/generated-site.js';
import { freePort } from '../bench/api-process.js';
import { createProject, fetchDoor, signUp } from '../support/actors.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A throwaway PostgreSQL cluster run as the postgres user. */
async function startPgCluster(log: (l: string) => void) {
  const port = await freePort();
  const dir = `/tmp/faults-drill-pg-${port}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('chown', ['postgres:postgres', dir]);
  const asPostgres = (bin: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${bin}`, ...args], { stdio: 'pipe' });
  asPostgres('initdb', ['-D', `${dir}/data`, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options =
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c ` +
    `synchronous_commit=off -c full_page_writes=off`;
  const start = () =>
    asPostgres('pg_ctl', ['-D', `${dir}/data`, '-l', `${dir}/server.log`, '-o', options, '-w', 'start']);
  const stop = () => asPostgres('pg_ctl', ['-D', `${dir}/data`, '-m', 'fast', '-w', 'stop']);
  start();
  log(`PostgreSQL cluster on 127.0.0.1:${port} (${dir})`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A redis-server without persistence: stopping it loses every key, as the finding's restart did. */
async function startRedisServer(log: (l: string) => void) {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      try {
        execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' });
        return;
      } catch {
        await sleep(50);
      }
    }
    throw new Error('redis-server did not start');
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  await start();
  log(`redis-server on 127.0.0.1:${port}`);
  const flushAll = () => execFileSync('redis-cli', ['-p', String(port), 'FLUSHALL'], { stdio: 'pipe' });
  return { url: `redis://127.0.0.1:${port}`, start, stop, flushAll };
}

/** A webhook receiver on 127.0.0.1 answering 500 to the first `failFirst` requests, 200 after; arrival times kept. */
async function startReceiver(failFirst: number) {
  const received: { headers: IncomingHttpHeaders; answered: number; at: number }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answered = received.length < failFirst ? 500 : 200;
      received.push({ headers: req.headers, answered, at: Date.now() });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Probe {
  status: number;
  ms: number;
  ok: boolean;
}

/**
 * Asks the API continuously until stopped: Surface A, a free tool and the job endpoint in turn. A response is "ok"
 * when it is a 200, or a 503 with Retry-After and `{ error, code: 'UNAVAILABLE' }`, within 1.5 s.
 */
function hammer(base: string, key: string, jobId: string) {
  const probes: Probe[] = [];
  let running = true;
  const requests: (() => Promise<Response>)[] = [
    () => fetch(`${base}/api/v1/projects`, { headers: { authorization: `Bearer ${key}` } }),
    () =>
      fetch(`${base}/api/tools/meta-tags`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ html: '<title>t</title>' }),
      }),
    () => fetch(`${base}/api/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } }),
  ];
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const started = Date.now();
      try {
        const res = await requests[i % requests.length]();
        const text = await res.text();
        const ms = Date.now() - started;
        let shape = false;
        try {
          const body = JSON.parse(text) as { error?: unknown; code?: unknown };
          shape = typeof body.error === 'string' && body.code === 'UNAVAILABLE' && Object.keys(body).length === 2;
        } catch {}
        const ok =
          ms < 1_500 &&
          (res.status === 200 || (res.status === 503 && Number(res.headers.get('retry-after')) > 0 && shape));
        probes.push({ status: res.status, ms, ok });
      } catch {
        probes.push({ status: 0, ms: Date.now() - started, ok: false });
      }
      await sleep(150);
    }
  })();
  return {
    probes,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

const countBy = (probes: Probe[]) =>
  probes.reduce<Record<string, number>>((acc, p) => ((acc[p.status] = (acc[p.status] ?? 0) + 1), acc), {});

async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await fn().catch(() => null);
    if (v) return v;
    await sleep(everyMs);
  }
  return null;
}

interface AuditRow {
  id: string;
  status: string;
  error: string | null;
  pages_crawled: number;
  attempts: number;
}

/** The R scenario's audit: the issue's 200 pages, slow enough that the audit outlasts the restart at 10 s by far. */
const RESTART_PAGES = 200;
const RESTART_PAGE_DELAY_MS = 400;
const RESTART_AFTER_MS = 10_000;
/** The alert scenarios: the reconciler's interval (and grace), and the delay before a webhook's attempt 2. */
const ALERT_RECONCILE_MS = 2_000;
const ALERT_RETRY_DELAY_MS = 5_000;

export const drill: Drill = {
  description: 'kill -9 of a worker, Redis stopped and restarted empty, PostgreSQL restarted, all mid-audit',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const pages = quick ? 100 : 300;
    const delayMs = quick ? 120 : 200;
    const redisOutageMs = quick ? 5_000 : 20_000;
    const pgOutageMs = quick ? 3_000 : 10_000;
    const figures: Record<string, unknown> = { sitePages: pages, pageDelayMs: delayMs, redisOutageMs, pgOutageMs };
    const pg = await startPgCluster(log);
    const redis = await startRedisServer(log);
    const sites: ReturnType<typeof generatedSite>[] = [];
    let platform: Platform | null = null;
    try {
      platform = await startPlatform({
        postgresUrl: pg.url,
        redisUrl: redis.url,
        apis: 1,
        workerGroups: 2,
        env: {
          SAFE_HTTP_ALLOW: '127.0.0.1/32',
          WORKER_LOCK_MS: '5000',
          WORKER_CONCURRENCY: '2',
          AUDIT_SWEEP_INTERVAL_MS: '2000',
          AUDIT_PARSE_THREADS: '0',
          LOG_LEVEL: 'info',
          // The probes' anonymous tool calls would otherwise meet the per-IP limit (10/min): this drill is about
          // outages.
          ANONYMOUS_RATE_PER_MINUTE: '100000',
          ALERT_RECONCILE_MS: String(ALERT_RECONCILE_MS),
          ALERT_RETRY_DELAY_MS: String(ALERT_RETRY_DELAY_MS),
          ALERT_WEBHOOK_ATTEMPTS: '4',
        },
      });
      const p = platform;
      const api = p.apis[0];
      const apiPid = api.pid;

      // A user on ENTERPRISE with an API key.
      const door = fetchDoor(api.baseUrl, { rows: p.sql });
      const { cookie, organizationId } = await signUp(door, {
        email: `faults-${Date.now()}@example.test`,
        name: 'Faults',
      });
      await p.cli(['org', 'set-plan', organizationId, 'ENTERPRISE']);
      const { key } = await p.cli<{ key: string }>([
        'api-key',
        'create',
        '--org',
        organizationId,
        '--name',
        'faults drill',
      ]);

      const audits: { id: string; jobId: string; scenario: string; pages: number }[] = [];
      /** GraphQL as the signed-in user. */
      const graphql = async (query: string, variables: Record<string, unknown>) => {
        const res = await fetch(`${api.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, origin: api.baseUrl },
          body: JSON.stringify({ query, variables }),
        }).then((r) => r.json() as Promise<{ data?: Record<string, any>; errors?: unknown }>);
        if (!res.data) throw new Error(`GraphQL failed: ${JSON.stringify(res.errors)}`);
        return res.data;
      };
      /**
       * A SCORE_DROP rule (1 point) of the project with a webhook endpoint at `url`, and a perfect audit an hour
       * earlier: the next audit's completion raises one alert, one delivery.
       */
      const watchScore = async (projectId: string, url: string) => {
        await graphql('mutation($p: ID!, $i: AlertRuleInput!) { createAlertRule(projectId: $p, input: $i) { id } }', {
          p: projectId,
          i: { kind: 'SCORE_DROP', category: 'OVERALL', points: 1, channels: ['WEBHOOK'] },
        });
        await graphql(
          `mutation($p: ID!, $i: CreateWebhookEndpointInput!) {
            createWebhookEndpoint(projectId: $p, input: $i) { endpoint { id } } }`,
          { p: projectId, i: { url } },
        );
        await p.sql(
          `INSERT INTO audit (id, project_id, status, job_id, overall_score, meta_score, content_score, links_score,
             technical_score, performance_score, pages_crawled, max_pages, created_at, completed_at)
           VALUES ($1::uuid, $2, 'COMPLETED', $1::text, 100, 100, 100, 100, 100, 100, 5, 100,
             now() - interval '1 hour', now() - interval '1 hour')`,
          [randomUUID(), projectId],
        );
      };
      /** A project on a fresh copy of the site, audited through Surface A; resolves once its crawl is under way. */
      const startAudit = async (
        scenario: string,
        sitePages = pages,
        pageDelayMs = delayMs,
        prepare?: (projectId: string) => Promise<void>,
      ) => {
        const site = generatedSite(sitePages, pageDelayMs);
        sites.push(site);
        const port = await site.listen();
        const created = await createProject(door, { cookie }, { url: `http://127.0.0.1:${port}/` });
        await prepare?.(created.id);
        const started = await fetch(`${api.baseUrl}/api/v1/projects/${created.id}/audit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
        });
        const { auditId, jobId } = (await started.json()) as { auditId: string; jobId: string };
        audits.push({ id: auditId, jobId, scenario, pages: sitePages });
        const under = await waitFor(async () => ((await row(auditId))?.pages_crawled ?? 0) >= 10, 30_000);
        if (!under) throw new Error(`audit ${auditId} did not start crawling`);
        return { auditId, jobId, site };
      };
      const row = async (id: string) =>
        (await p.sql<AuditRow>('SELECT id, status, error, pages_crawled, attempts FROM audit WHERE id = $1', [id]))[0];
      /** Outage end → the audit crawled further than it stood (or ended). */
      const progressAfter = async (id: string, since: number, timeoutMs: number) => {
        const before = (await row(id).catch(() => null))?.pages_crawled ?? 0;
        const seen = await waitFor(
          async () => {
            const r = await row(id);
            return r &&
              (r.status === 'COMPLETED' || r.status === 'FAILED' || (r.pages_crawled > 0 && r.pages_crawled !== before))
              ? r
              : null;
          },
          timeoutMs,
          200,
        );
        return seen ? Date.now() - since : null;
      };
      const apiOkAfter = async (since: number) => {
        const ok = await waitFor(
          async () =>
            (await fetch(`${api.baseUrl}/api/v1/projects`, { headers: { authorization: `Bearer ${key}` } })).status ===
            200,
          60_000,
          50,
        );
        return ok ? Date.now() - since : null;
      };
      const auditWorkerPids = () => {
        const out: number[] = [];
        for (const g of p.workers) {
          const lines = execFileSync('ps', ['--ppid', String(g.pid), '-o', 'pid=,args='], { encoding: 'utf8' })
            .trim()
            .split('\n');
          for (const l of lines) if (/workers\/(all|audit)\.worker/.test(l)) out.push(Number(l.trim().split(/\s+/)[0]));
        }
        return out;
      };

      // A. kill -9 of the audit worker process running an audit.
      {
        const { auditId } = await startAudit('A');
        const line = p
          .logs()
          .split('\n')
          .find((l) => l.includes('"msg":"audit started"') && l.includes(auditId));
        const pid = line ? (JSON.parse(line) as { pid: number }).pid : auditWorkerPids()[0];
        const killedAt = Date.now();
        process.kill(pid, 'SIGKILL');
        log(`A: killed audit worker ${pid} running audit ${auditId}`);
        const restarted = await waitFor(
          async () => auditWorkerPids().length === 2 && !auditWorkerPids().includes(pid),
          30_000,
          100,
        );
        const restartedMs = restarted ? Date.now() - killedAt : null;
        const resumed = await waitFor(
          async () => {
            const r = await row(auditId);
            return r &&
              (r.attempts >= 2 || r.status === 'COMPLETED' || r.status === 'FAILED') &&
              (r.pages_crawled > 0 || r.status !== 'RUNNING')
              ? r
              : null;
          },
          60_000,
          200,
        );
        const resumedMs = resumed ? Date.now() - killedAt : null;
        figures.A = { killedPid: pid, workerRestartedMs: restartedMs, auditResumedMs: resumedMs, lockMs: 5_000 };
        log(`A: ${JSON.stringify(figures.A)}`);
        expect(!!restarted, 'A: the supervisor restarted the killed audit worker (its group stayed up)');
        expect(!!resumed, 'A: the killed worker’s audit was resumed by another attempt');
      }

      // B. Redis stopped, then started again empty.
      {
        const { auditId, jobId } = await startAudit('B');
        const h = hammer(api.baseUrl, key, jobId);
        await redis.stop();
        log(`B: Redis stopped for ${redisOutageMs / 1000} s`);
        await sleep(redisOutageMs);
        await h.stop();
        await redis.start();
        const upAt = Date.now();
        log('B: Redis started again, empty');
        const firstOk = await apiOkAfter(upAt);
        const progressed = await progressAfter(auditId, upAt, 60_000);
        const bad = h.probes.filter((x) => !x.ok);
        figures.B = {
          requestsDuringOutage: h.probes.length,
          byStatus: countBy(h.probes),
          notAsExpected: bad.length,
          maxMs: Math.max(0, ...h.probes.map((x) => x.ms)),
          apiFirst200Ms: firstOk,
          auditProgressingMs: progressed,
        };
        log(`B: ${JSON.stringify(figures.B)}`);
        expect(
          h.probes.some((x) => x.status === 503),
          'B: the API answered 503 while Redis was down',
        );
        expect(
          bad.length === 0,
          `B: every answer during the outage was a 503 UNAVAILABLE with Retry-After (or a 200) within 1.5 ` +
            `s (${bad.length} were not: ${JSON.stringify(countBy(bad))})`,
        );
        expect(firstOk !== null, 'B: the API answered 200 again without a restart');
        expect(progressed !== null, 'B: the audit progressed again after Redis came back empty');
      }

      // R. Redis restarted empty 10 s into a 200-page audit whose worker stays alive.
      {
        const { auditId, site } = await startAudit('R', RESTART_PAGES, RESTART_PAGE_DELAY_MS);
        const [{ created }] = await p.sql<{ created: Date }>('SELECT created_at AS created FROM audit WHERE id = $1', [
          auditId,
        ]);
        await sleep(Math.max(0, created.getTime() + RESTART_AFTER_MS - Date.now()));
        await redis.stop();
        await redis.start();
        const restartedAtMs = Date.now() - created.getTime();
        log(`R: Redis restarted empty ${(restartedAtMs / 1000).toFixed(1)} s into audit ${auditId}`);
        const ended = await waitFor(
          async () => {
            const r = await row(auditId);
            return r && (r.status === 'COMPLETED' || r.status === 'FAILED') ? r : null;
          },
          180_000,
          200,
        );
        // A few sweeps after the end: nothing starts the audit again.
        await sleep(3 * 2_000);
        const [end] = await p.sql<AuditRow & { seconds: number }>(
          `SELECT id, status, error, pages_crawled, attempts,
             extract(epoch FROM (coalesce(completed_at, now()) - created_at))::float AS seconds
           FROM audit WHERE id = $1`,
          [auditId],
        );
        const requests = [...site.hits.values()].reduce((a, b) => a + b, 0);
        const pageHits = [...site.hits.entries()].filter(([path]) => path === '/' || path.startsWith('/p/'));
        const pageRequests = pageHits.reduce((a, [, n]) => a + n, 0);
        figures.R = {
          sitePages: RESTART_PAGES,
          pageDelayMs: RESTART_PAGE_DELAY_MS,
          redisRestartedAtMs: restartedAtMs,
          status: end.status,
          attempts: end.attempts,
          pagesCrawled: end.pages_crawled,
          auditSeconds: Math.round(end.seconds * 10) / 10,
          requests,
          pageRequests,
          pagesRequestedTwice: pageHits.filter(([, n]) => n > 1).length,
        };
        log(`R: ${JSON.stringify(figures.R)}`);
        expect(!!ended && end.status === 'COMPLETED', `R: the audit completed (${end.status}: ${end.error ?? ''})`);
        expect(
          restartedAtMs < end.seconds * 1000 - 5_000,
          'R: the restart came while the audit ran, well before its end',
        );
        expect(end.attempts === 1, `R: one attempt after Redis restarted empty (${end.attempts})`);
        expect(
          pageRequests === RESTART_PAGES && requests <= RESTART_PAGES + 5,
          `R: each of the ${RESTART_PAGES} pages requested once (${pageRequests} page requests, ${requests} in all)`,
        );
      }

      // C. PostgreSQL stopped, then started again.
      {
        const { auditId, jobId } = await startAudit('C');
        const h = hammer(api.baseUrl, key, jobId);
        pg.stop();
        log(`C: PostgreSQL stopped for ${pgOutageMs / 1000} s`);
        await sleep(pgOutageMs);
        await h.stop();
        pg.start();
        const upAt = Date.now();
        log('C: PostgreSQL started again');
        const firstOk = await apiOkAfter(upAt);
        const progressed = await progressAfter(auditId, upAt, 90_000);
        const bad = h.probes.filter((x) => !x.ok);
        figures.C = {
          requestsDuringOutage: h.probes.length,
          byStatus: countBy(h.probes),
          notAsExpected: bad.length,
          maxMs: Math.max(0, ...h.probes.map((x) => x.ms)),
          apiFirst200Ms: firstOk,
          auditProgressingMs: progressed,
        };
        log(`C: ${JSON.stringify(figures.C)}`);
        expect(
          h.probes.some((x) => x.status === 503),
          'C: the API answered 503 while PostgreSQL was down',
        );
        expect(
          bad.length === 0,
          `C: every answer during the outage was a 503 UNAVAILABLE with Retry-After (or a 200) within 1.5 ` +
            `s (${bad.length} were not: ${JSON.stringify(countBy(bad))})`,
        );
        expect(firstOk !== null, 'C: the API answered 200 again without a restart');
        expect(progressed !== null, 'C: the audit progressed again after PostgreSQL came back');
      }

      // L. Redis stopped while an audit completes: its alert is late, not lost, and sent once.
      {
        const receiver = await startReceiver(0);
        const lPages = 40;
        try {
          const { auditId } = await startAudit('L', lPages, delayMs, (projectId) =>
            watchScore(projectId, receiver.url),
          );
          await redis.stop();
          log('L: Redis stopped while the audit crawls its last pages');
          const ended = await waitFor(
            async () => {
              const r = await row(auditId);
              return r && (r.status === 'COMPLETED' || r.status === 'FAILED') ? r : null;
            },
            90_000,
            200,
          );
          // A few reconciler rounds with Redis still down: nothing can be sent.
          await sleep(2 * ALERT_RECONCILE_MS);
          const sentWhileDown = receiver.received.length;
          await redis.start();
          const upAt = Date.now();
          log(`L: audit ${ended?.status ?? 'still running'}; Redis started again, empty`);
          const sent = await waitFor(async () => receiver.received.length >= 1, 90_000, 100);
          // More rounds of the reconciler and the queue: nothing twice.
          await sleep(3 * ALERT_RECONCILE_MS);
          const [{ events }] = await p.sql<{ events: number }>(
            `SELECT count(*)::int AS events FROM alert_event e JOIN audit a ON a.project_id = e.project_id
             WHERE a.id = $1`,
            [auditId],
          );
          const [evaluation] = await p.sql<{ state: string }>(
            'SELECT state FROM alert_evaluation WHERE audit_id = $1',
            [auditId],
          );
          figures.L = {
            sitePages: lPages,
            auditCompletedWhileRedisDown: ended?.status === 'COMPLETED',
            webhooksWhileRedisDown: sentWhileDown,
            webhookAfterRedisBackMs: sent ? receiver.received[0].at - upAt : null,
            webhooks: receiver.received.length,
            alertsRaised: events,
            evaluation: evaluation?.state ?? null,
            reconcilerRequeues: (p.logs().match(/owed alerts queued again/g) ?? []).length,
          };
          log(`L: ${JSON.stringify(figures.L)}`);
          expect(ended?.status === 'COMPLETED', `L: the audit completed while Redis was down (${ended?.status})`);
          expect(sentWhileDown === 0, 'L: no webhook while Redis was down');
          expect(receiver.received.length === 1, `L: one webhook after Redis came back (${receiver.received.length})`);
          expect(events === 1 && evaluation?.state === 'DONE', `L: one alert raised, evaluation DONE (${events})`);
        } finally {
          await receiver.close();
        }
      }

      // F. FLUSHALL between a webhook's attempts: attempt 2 is late, not lost, and made once.
      {
        const receiver = await startReceiver(1);
        try {
          const { auditId } = await startAudit('F', 20, delayMs, (projectId) => watchScore(projectId, receiver.url));
          const pending = await waitFor(
            async () =>
              receiver.received.length === 1 &&
              // Attempt 1's failure recorded (not merely claimed): attempt 2 is due after the retry delay.
              (
                await p.sql<{ due: Date }>(
                  `SELECT d.next_attempt_at AS due FROM alert_delivery d JOIN alert_event e ON e.id = d.event_id
                   JOIN audit a ON a.project_id = e.project_id
                   WHERE a.id = $1 AND d.state = 'PENDING' AND d.attempts = 1 AND d.last_error IS NOT NULL`,
                  [auditId],
                )
              )[0],
            120_000,
            50,
          );
          // Attempt 2's delayed job is in Redis by now (queued right after the record); then Redis loses it.
          await sleep(500);
          redis.flushAll();
          const flushedAt = Date.now();
          log('F: FLUSHALL after attempt 1 (answered 500), before attempt 2');
          const second = await waitFor(async () => receiver.received.length >= 2, 90_000, 100);
          await sleep(ALERT_RETRY_DELAY_MS + 3 * ALERT_RECONCILE_MS);
          figures.F = {
            retryDelayMs: ALERT_RETRY_DELAY_MS,
            attempt2AfterFlushMs: second ? receiver.received[1].at - flushedAt : null,
            attempt2LateByMs: second && pending ? receiver.received[1].at - pending.due.getTime() : null,
            requests: receiver.received.length,
            answers: receiver.received.map((r) => r.answered),
            attemptHeaders: receiver.received.map((r) => r.headers['x-delivery-attempt']),
          };
          log(`F: ${JSON.stringify(figures.F)}`);
          expect(!!pending, 'F: attempt 1 failed and attempt 2 was owed');
          expect(
            receiver.received.length === 2 &&
              receiver.received[1].answered === 200 &&
              receiver.received[1].headers['x-delivery-attempt'] === '2',
            `F: attempt 2 came after the FLUSHALL, once (${receiver.received.length} requests)`,
          );
          expect(
            new Set(receiver.received.map((r) => r.headers['x-event-id'])).size === 1,
            'F: both attempts carry the same event id',
          );
        } finally {
          await receiver.close();
        }
      }

      // Every audit ends, and what the completed ones hold is whole and not doubled.
      const ids = audits.map((a) => a.id);
      const ended = await waitFor(
        async () => {
          const rows = await p.sql<AuditRow>(
            'SELECT id, status, error, pages_crawled, attempts FROM audit WHERE id = ANY($1)',
            [ids],
          );
          return rows.every((r) => r.status === 'COMPLETED' || r.status === 'FAILED') ? rows : null;
        },
        quick ? 90_000 : 180_000,
        500,
      );
      const finalRows =
        ended ??
        (await p.sql<AuditRow>('SELECT id, status, error, pages_crawled, attempts FROM audit WHERE id = ANY($1)', [
          ids,
        ]));
      const stored = await p.sql<{ id: string; pages: number; occurrences: number; issues: number }>(
        `SELECT a.id, (SELECT count(*) FROM audit_page WHERE audit_id = a.id)::int AS pages,
           (SELECT count(*) FROM issue_occurrence WHERE audit_id = a.id)::int AS occurrences,
           (SELECT count(*) FROM audit_issue WHERE audit_id = a.id)::int AS issues
         FROM audit a WHERE a.id = ANY($1)`,
        [ids],
      );
      const [dupOccurrences] = await p.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM issue_occurrence WHERE audit_id = ANY($1) GROUP BY ` +
          `audit_id, code, url, evidence::text HAVING count(*) > 1) d`,
        [ids],
      );
      const [dupIssues] = await p.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_issue WHERE audit_id = ANY($1) GROUP BY ` +
          `audit_id, code HAVING count(*) > 1) d`,
        [ids],
      );
      const [dupPages] = await p.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_page WHERE audit_id = ANY($1) GROUP BY ` +
          `audit_id, url HAVING count(*) > 1) d`,
        [ids],
      );
      figures.audits = audits.map((a) => {
        const r = finalRows.find((x) => x.id === a.id);
        const s = stored.find((x) => x.id === a.id);
        return {
          scenario: a.scenario,
          status: r?.status,
          error: r?.error,
          runs: r?.attempts,
          pagesCrawled: r?.pages_crawled,
          pagesStored: s?.pages,
          occurrences: s?.occurrences,
          issues: s?.issues,
        };
      });
      figures.duplicates = { pages: dupPages.n, issues: dupIssues.n, occurrences: dupOccurrences.n };
      log(`audits: ${JSON.stringify(figures.audits)}`);
      expect(
        !!ended,
        `every audit ended COMPLETED or FAILED (stuck: ${
          finalRows
            .filter((r) => r.status !== 'COMPLETED' && r.status !== 'FAILED')
            .map((r) => r.status)
            .join(', ') || 'none'
        })`,
      );
      for (const r of finalRows) if (r.status === 'FAILED') expect(!!r.error, `audit ${r.id} FAILED with a reason`);
      // Redis losing its data does not start a running audit again: its worker is alive (its heartbeat).
      for (const a of audits.filter((x) => x.scenario === 'B' || x.scenario === 'R')) {
        const r = finalRows.find((x) => x.id === a.id);
        expect(r?.attempts === 1, `${a.scenario}: the audit ran once although Redis lost its job (${r?.attempts})`);
      }
      const completed = stored.filter((s) => finalRows.find((r) => r.id === s.id)?.status === 'COMPLETED');
      for (const s of completed) {
        const r = finalRows.find((x) => x.id === s.id)!;
        const sitePages = audits.find((a) => a.id === s.id)!.pages;
        expect(
          s.pages === sitePages && r.pages_crawled === sitePages,
          `completed audit ${s.id} holds the site's ${sitePages} pages ` +
            `(stored ${s.pages}, reported ${r.pages_crawled})`,
        );
      }
      // The same site gives the same issues: compared among the audits of the shared site size.
      const occurrenceCounts = new Set(
        completed
          .filter((s) => audits.find((a) => a.id === s.id)!.pages === pages)
          .map((s) => `${s.occurrences}/${s.issues}`),
      );
      expect(
        occurrenceCounts.size <= 1,
        `completed audits of the same site hold the same occurrences/issues (${[...occurrenceCounts].join(' vs ')})`,
      );
      expect(
        dupPages.n + dupIssues.n + dupOccurrences.n === 0,
        `no duplicated rows (${JSON.stringify(figures.duplicates)})`,
      );

      // The platform recovered by itself.
      expect(api.alive() && api.pid === apiPid, 'the API process was never restarted');
      expect(
        p.workers.every((w) => w.alive()),
        'both worker groups are still up',
      );
      const logs = p.logs();
      figures.logs = {
        unhandledIoredis: (logs.match(/Unhandled error event/g) ?? []).length,
        unhandledRejections: (logs.match(/unhandled promise rejection/g) ?? []).length,
        stateChangeLines: (logs.match(/"msg":"(redis|postgres) is (unreachable|reachable again)"/g) ?? []).length,
        workerRestarts: (logs.match(/a platform process exited; restarting it/g) ?? []).length,
        outageRequeues: (logs.match(/queued again without spending an attempt/g) ?? []).length,
        sweeperRepairs: (logs.match(/audit sweeper repaired audits/g) ?? []).length,
        failedRequestLines: (logs.match(/"msg":"request failed"/g) ?? []).length,
      };
      log(`logs: ${JSON.stringify(figures.logs)}`);
      // Every completed audit's alerts were evaluated (none left owed), and no delivery is left pending.
      const [owed] = await p.sql<{ evaluations: number; deliveries: number }>(
        `SELECT (SELECT count(*) FROM alert_evaluation WHERE state <> 'DONE')::int AS evaluations,
           (SELECT count(*) FROM alert_delivery WHERE state = 'PENDING')::int AS deliveries`,
      );
      figures.alertsOwedAtEnd = owed;
      expect(
        owed.evaluations === 0 && owed.deliveries === 0,
        `no alert evaluation or delivery left owed (${JSON.stringify(owed)})`,
      );
      expect(
        (figures.logs as { unhandledIoredis: number }).unhandledIoredis === 0,
        'no "[ioredis] Unhandled error event" in any log',
      );
    } finally {
      await platform?.stop().catch((err: unknown) => log(`platform stop: ${String(err)}`));
      for (const s of sites) await s.close();
      await redis.stop();
      pg.destroy();
    }
    return result(figures);
  },
};
