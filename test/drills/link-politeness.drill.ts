/**
 * Link politeness per address (issue 61, findings 5 and 6), on the built platform: tenants' sites whose pages link
 * many host names that all resolve to one victim address (127.0.0.2; the victim answers HEAD with 405, so every link
 * costs a GET too), audited at once by one worker process. A counting server at the victim measures what reaches
 * it: requests in all and per audit, the most in flight at once, requests per second (overall and the busiest
 * second). Its GETs are slow (GET_MS), so the pace alone would let more than the limit overlap. Expected: never
 * more in flight than LINK_CHECK_ADDRESS_CONCURRENCY, whatever the number of names or of audits; at most
 * LINK_CHECK_ADDRESS_CAP requests per audit (HEAD and GET both counted), the links past it listed as not checked
 * ("per-address request cap reached"), never as broken.
 * Then the poison case: a host with one link redirecting to a refused address, one redirecting to a dead host, a 404
 * and two good links, the others linked after the redirects have failed: each link gets its own verdict.
 * Names are pinned with SAFE_HTTP_RESOLVE: no DNS query leaves the machine, and no packet leaves 127.0.0.0/8.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  closedPort,
  startFixtureSite,
  type FixtureRoutes,
  type RunningSite,
} from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { textFile } from '../fixtures/sites/shared-assets.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform, type Platform } from './platform.js';
import { apiClient, must, signUp, sleep, type ApiClient } from './drill-http.js';

const VICTIM_ADDRESS = '127.0.0.2';
const MIXED_ADDRESS = '127.0.0.3';
const DEAD_ADDRESS = '127.0.0.4';
const CAP_REASON = 'per-address request cap reached';
/** The victim's GET takes this long: at the pace allowed, more than the in-flight limit would overlap. */
const GET_MS = 800;

/** The victim: counts requests (by the audit's site, from the path), in flight at once, and when each started. */
interface Victim {
  port: number;
  starts: number[];
  byTenant: Map<string, { head: number; get: number }>;
  inFlight: number;
  peak: number;
  close(): Promise<void>;
}

async function startVictim(): Promise<Victim> {
  const victim = { starts: [], byTenant: new Map(), inFlight: 0, peak: 0 } as unknown as Victim;
  const server: Server = createServer((req, res) => {
    victim.starts.push(Date.now());
    victim.inFlight++;
    victim.peak = Math.max(victim.peak, victim.inFlight);
    // Done when answered ('finish') or when the client gave up ('close' alone), whichever comes first.
    let done = false;
    const end = () => {
      if (!done) victim.inFlight--;
      done = true;
    };
    res.once('finish', end);
    res.once('close', end);
    const tenant = (req.url ?? '/').split('/')[1] ?? '';
    const count = victim.byTenant.get(tenant) ?? { head: 0, get: 0 };
    victim.byTenant.set(tenant, count);
    if (req.method === 'HEAD') {
      count.head++;
      res.writeHead(405, { allow: 'GET', 'content-length': '0' }).end();
    } else {
      count.get++;
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('victim'), GET_MS);
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, VICTIM_ADDRESS, () => resolve()));
  victim.port = (server.address() as AddressInfo).port;
  victim.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return victim;
}

/** The most request starts within any one second. */
function busiestSecond(starts: readonly number[]): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= 1_000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

async function auditOf(platform: Platform, auditId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await platform.sql<{
      status: string;
      error: string | null;
      unchecked: string | null;
      final: boolean;
    }>(
      'SELECT status, error, unchecked_links::text AS unchecked, external_links_final AS final FROM audit ' +
        'WHERE id = $1',
      [auditId],
    );
    // Final: a completed audit may still be folding in its external verdicts (what this drill measures).
    if (row && ['COMPLETED', 'FAILED', 'CANCELLED'].includes(row.status) && row.final) return row;
    if (Date.now() > deadline) return row ?? null;
    await sleep(300);
  }
}

/**
 * Signs a tenant up on the default plan (FREE, as an attacker with a free account would) and, through GraphQL as the
 * web app does, makes its project of `url` and starts its audit.
 */
async function tenantAudit(api: ApiClient, who: string, url: string): Promise<string> {
  const user = await signUp(api, `${who}-${Date.now()}@drill.test`, `pw-${randomBytes(9).toString('hex')}`);
  const auth = { cookie: user.cookie };
  const created = must(
    await api.gql(
      'mutation($u: String!, $n: String) { createProject(input: { url: $u, name: $n }) { id } }',
      {
        u: url,
        n: who,
      },
      auth,
    ),
    200,
    `${who}'s project`,
  );
  const projectId = created?.data?.createProject?.id as string | undefined;
  if (!projectId) throw new Error(`${who}'s project: ${JSON.stringify(created)}`);
  const started = must(
    await api.gql('mutation($p: ID!) { startAudit(projectId: $p) { auditId } }', { p: projectId }, auth),
    200,
    `${who}'s audit`,
  );
  const auditId = started?.data?.startAudit?.auditId as string | undefined;
  if (!auditId) throw new Error(`${who}'s audit: ${JSON.stringify(started)}`);
  return auditId;
}

const OPEN: FixtureRoutes = { '/robots.txt': textFile('User-agent: *\nAllow: /\n') };

/** An attacker's site: `pages` pages, each linking every name `paths` times (distinct URLs) on the victim's port. */
function attackRoutes(site: RunningSite, tenant: string, names: string[], port: number, pages: number, paths: number) {
  const routes: FixtureRoutes = { ...OPEN };
  for (let p = 0; p < pages; p++) {
    const path = p === 0 ? '/' : `/p/${p}`;
    const nav = p === 0 ? Array.from({ length: pages - 1 }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`) : [];
    const links: string[] = [];
    for (let k = 0; k < paths; k++)
      for (const name of names) links.push(`<a href="http://${name}:${port}/${tenant}/${p}/${k}">x</a>`);
    routes[path] = { body: page(site.origin, path, { bodyExtra: `<p>${[...nav, ...links].join(' ')}</p>` }) };
  }
  return routes;
}

export const drill: Drill = {
  description:
    'many names for one victim address, HEAD 405: in flight, requests per audit and per second at the victim; ' +
    'one redirecting link does not decide its host',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const NAMES = 50;
    const PAGES = quick ? 2 : 21;
    const PATHS = quick ? 3 : 10;
    const TENANTS = 2;
    const LIMITS = { inFlight: 6, perSecond: 10, cap: quick ? 100 : 500 };
    const victim = await startVictim();
    const names = Array.from({ length: NAMES }, (_, n) => `n${n}.victim.drill.test`);
    const sites = await Promise.all(
      Array.from({ length: TENANTS }, (_, t) => startFixtureSite({ host: `attacker${t}.drill.test` })),
    );
    sites.forEach((site, t) => site.serve(attackRoutes(site, `t${t}`, names, victim.port, PAGES, PATHS)));
    // The poison case: a host of five links, the redirecting ones on the first page, the others on a later one.
    const mixed = await startFixtureSite({ host: 'mixed.drill.test', listenAddress: MIXED_ADDRESS });
    const deadPort = await closedPort();
    const m = (path: string) => `${mixed.origin}${path}`;
    mixed.serve({
      '/to-refused': { status: 302, headers: { location: 'http://10.0.0.1/admin' } },
      '/to-dead': { status: 302, headers: { location: `http://dead.drill.test:${deadPort}/` } },
      '/ok': { body: 'fine' },
      '/also-ok': { body: 'fine' },
    });
    const poisonSite = await startFixtureSite({ host: 'poison.drill.test' });
    const anchors = (urls: string[]) => urls.map((u, k) => `<a href="${u}">Link ${k}</a>`).join(' ');
    poisonSite.serve({
      ...OPEN,
      '/': {
        body: page(poisonSite.origin, '/', {
          bodyExtra: `<p>${anchors([m('/to-refused'), m('/to-dead'), '/later'])}</p>`,
        }),
      },
      '/later': {
        delayMs: 1_000,
        body: page(poisonSite.origin, '/later', {
          bodyExtra: `<p>${anchors([m('/missing'), m('/ok'), m('/also-ok')])}</p>`,
        }),
      },
    });
    const pins = [
      ...names.map((n) => `${n}=${VICTIM_ADDRESS}`),
      ...sites.map((s) => `${s.host}=127.0.0.1`),
      `${poisonSite.host}=127.0.0.1`,
      `${mixed.host}=${MIXED_ADDRESS}`,
      `dead.drill.test=${DEAD_ADDRESS}`,
    ];
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: {
        LOG_LEVEL: 'warn',
        SAFE_HTTP_ALLOW: '127.0.0.0/8',
        SAFE_HTTP_RESOLVE: pins.join(','),
        WORKER_CONCURRENCY: String(TENANTS + 1),
        LINK_CHECK_ADDRESS_CONCURRENCY: String(LIMITS.inFlight),
        LINK_CHECK_ADDRESS_RATE: String(LIMITS.perSecond),
        LINK_CHECK_ADDRESS_CAP: String(LIMITS.cap),
      },
    });
    const linksPerTenant = PAGES * PATHS * NAMES;
    const figures: Record<string, unknown> = {
      names: NAMES,
      pagesPerSite: PAGES,
      linksPerSite: linksPerTenant,
      auditsAtOnce: TENANTS,
      limits: LIMITS,
    };
    try {
      const api = apiClient(platform.apis[0].baseUrl);
      const started = Date.now();
      const auditIds = await Promise.all(sites.map((s, t) => tenantAudit(api, `tenant${t}`, s.url('/'))));
      const audits = await Promise.all(auditIds.map((id) => auditOf(platform, id, quick ? 45_000 : 600_000)));
      const seconds = (Date.now() - started) / 1000;
      const total = victim.starts.length;
      const span = total > 1 ? (Math.max(...victim.starts) - Math.min(...victim.starts)) / 1000 : 0;
      const perAudit = sites.map((_, t) => victim.byTenant.get(`t${t}`) ?? { head: 0, get: 0 });
      const overCap = audits.map((a) => {
        const unchecked = JSON.parse(a?.unchecked ?? '[]') as { url: string; reason: string }[];
        return unchecked.filter((u) => u.reason === CAP_REASON && u.url.includes('.victim.drill.test')).length;
      });
      const brokenVictim = await platform.sql<{ n: string }>(
        "SELECT count(*) AS n FROM issue_occurrence WHERE audit_id = ANY($1) AND code = 'LINKS_EXTERNAL_BROKEN'",
        [auditIds],
      );
      Object.assign(figures, {
        auditStatuses: audits.map((a) => a?.status),
        auditsSeconds: Math.round(seconds),
        victimRequests: total,
        victimRequestsPerAudit: perAudit,
        victimPeakInFlight: victim.peak,
        victimRequestsPerSecond: span > 0 ? Math.round((total / span) * 10) / 10 : total,
        victimBusiestSecond: busiestSecond(victim.starts),
        linksReportedOverCap: overCap,
        brokenLinkOccurrences: Number(brokenVictim[0]?.n ?? 0),
      });
      log(
        `victim: ${total} requests (${perAudit.map((c) => c.head + c.get).join(' + ')}), peak ${victim.peak} in ` +
          `flight, busiest second ${busiestSecond(victim.starts)}, audits ${audits.map((a) => a?.status).join(', ')} ` +
          `in ${Math.round(seconds)} s; over the cap ${overCap.join(', ')}`,
      );
      for (const [t, a] of audits.entries())
        expect(a?.status === 'COMPLETED', `tenant ${t}'s audit completed (${a?.status}: ${a?.error ?? ''})`);
      expect(victim.peak <= LIMITS.inFlight, `at most ${LIMITS.inFlight} in flight at the victim (${victim.peak})`);
      for (const [t, c] of perAudit.entries()) {
        expect(c.head + c.get <= LIMITS.cap, `audit ${t}: at most ${LIMITS.cap} requests (${c.head + c.get})`);
        expect(c.get > 0 && c.head >= c.get, `audit ${t}: a GET after each refused HEAD (${c.head} / ${c.get})`);
        expect(
          overCap[t] >= Math.min(linksPerTenant, 10_000) - LIMITS.cap / 2,
          `audit ${t}: the links past the cap listed as not checked with the reason (${overCap[t]})`,
        );
      }
      // The gate spaces request starts 1/rate apart; what arrives at the victim can bunch (a connection set up, a busy
      // event loop), so its busiest second may hold a few more. Twice the rate would be a gate that does not pace.
      expect(
        busiestSecond(victim.starts) < 2 * LIMITS.perSecond,
        `at most ${LIMITS.perSecond}/s at the victim (busiest second ${busiestSecond(victim.starts)})`,
      );
      expect(Number(brokenVictim[0]?.n ?? 0) === 0, 'no victim link reported broken');

      // The poison case.
      const poisonId = await tenantAudit(api, 'poisoner', poisonSite.url('/'));
      const poison = await auditOf(platform, poisonId, 60_000);
      const unchecked = JSON.parse(poison?.unchecked ?? '[]') as { url: string; reason: string }[];
      const broken = await platform.sql<{ evidence: string }>(
        'SELECT evidence::text AS evidence FROM issue_occurrence WHERE audit_id = $1 AND code = $2',
        [poisonId, 'LINKS_EXTERNAL_BROKEN'],
      );
      const asked = new Set(mixed.requests.map((r) => r.path));
      const verdict = (path: string) => {
        const u = unchecked.find((x) => x.url === m(path));
        if (u) return `could not check: ${u.reason}`;
        if (broken.some((b) => b.evidence.includes(m(path)))) return 'broken';
        return asked.has(path) ? 'ok' : 'not asked';
      };
      const verdicts = Object.fromEntries(
        ['/to-refused', '/to-dead', '/missing', '/ok', '/also-ok'].map((p) => [p, verdict(p)]),
      );
      figures.poison = { status: poison?.status, verdicts, asked: [...asked].sort() };
      log(`poison case: ${JSON.stringify(verdicts)}`);
      expect(poison?.status === 'COMPLETED', `the poison audit completed (${poison?.status})`);
      expect(/^could not check: refused by policy/.test(verdicts['/to-refused']), 'the refused redirect: its reason');
      expect(verdicts['/to-dead'] === 'broken', `the redirect to a dead host: broken (${verdicts['/to-dead']})`);
      expect(verdicts['/missing'] === 'broken', `the 404: broken (${verdicts['/missing']})`);
      expect(verdicts['/ok'] === 'ok' && verdicts['/also-ok'] === 'ok', 'the good links: ok');
    } finally {
      await platform.stop();
      await Promise.all([victim.close(), mixed.close(), poisonSite.close(), ...sites.map((s) => s.close())]);
    }
    return result(figures);
  },
};
