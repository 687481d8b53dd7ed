/**
 * Bounded resources: hostile servers — headers trickled at 1 byte/s, a body that claims 1 GB and streams
 * slowly, a gzip bomb (as Content-Encoding and as a .gz sitemap file), a redirect loop and endless
 * redirects, a 50 MB HTML page — each through the four free tools and an audit. Each must end within its
 * time budget (the fetch deadlines of the safe client, SAFE_HTTP_DEFAULTS, and of the tool or crawler step)
 * and under a memory budget (peak RSS of the API process and of the audit worker, VmHWM, reset before each
 * round through /proc/<pid>/clear_refs). Figures: time to refusal, peak RSS, the error shown.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createGzip } from 'node:zlib';
import { SAFE_HTTP_DEFAULTS } from '../../src/platform/safe-http/index.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
import {
  apiClient,
  childPids,
  keepLogs,
  must,
  peakRssMiB,
  resetPeakRss,
  rssMiB,
  sessionSecrets,
  signUp,
  sleep,
  waitForAudit,
} from './drill-http.js';

const HOST = 'bounded.drill.test';
const MiB = 1024 * 1024;

interface Attack {
  name: string;
  port: number;
  /** Paths the tools are given (the sitemap tool gets a .gz file for the file bomb). */
  path: string;
  /** Ends only at a deadline (tens of seconds per fetch). */
  slow?: boolean;
  close(): Promise<void>;
}

async function gzipOfZeros(bytes: number): Promise<Buffer> {
  const gz = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gz.on('data', (c: Buffer) => chunks.push(c));
  const zero = Buffer.alloc(MiB);
  for (let i = 0; i < bytes / MiB; i++) if (!gz.write(zero)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await new Promise((r) => gz.once('end', r));
  return Buffer.concat(chunks);
}

async function listen(server: HttpServer | NetServer): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as { port: number }).port;
}

function closer(server: HttpServer | NetServer, sockets: Set<Socket>, timers: Set<NodeJS.Timeout>) {
  return async () => {
    for (const t of timers) clearInterval(t);
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
}

function tracked(server: HttpServer | NetServer, sockets: Set<Socket>) {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
}

/** Status line at once, then one header byte a second, never ending the header block. */
async function trickleHeaders(): Promise<Attack> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createNetServer((socket) => {
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: ');
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('a')), 1000);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    });
  });
  tracked(server, sockets);
  return {
    name: 'headers trickled at 1 byte/s',
    port: await listen(server),
    path: '/',
    slow: true,
    close: closer(server, sockets, timers),
  };
}

/** Content-Length: 1 GB, then 1 KiB every 200 ms. */
async function claimsOneGigabyte(): Promise<Attack> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createHttpServer((req, res) => {
    res.writeHead(200, {
      'content-type': path(req.url).endsWith('.xml') ? 'application/xml' : 'text/html',
      'content-length': String(1024 ** 3),
    });
    res.write('<!doctype html><html><head><title>slow</title></head><body>');
    const chunk = Buffer.alloc(1024, 'a');
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(chunk)), 200);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  });
  tracked(server, sockets);
  return {
    name: 'body claiming 1 GB, streamed slowly',
    port: await listen(server),
    path: '/',
    slow: true,
    close: closer(server, sockets, timers),
  };
}

/** Small on the wire, `inflated` bytes once decompressed: as Content-Encoding, and as a .gz sitemap file. */
async function gzipBomb(bomb: Buffer, asFile: boolean): Promise<Attack> {
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    const headers: Record<string, string> = asFile
      ? { 'content-type': 'application/gzip' }
      : {
          'content-type': path(req.url).includes('robots')
            ? 'text/plain'
            : path(req.url).includes('sitemap')
              ? 'application/xml'
              : 'text/html',
          'content-encoding': 'gzip',
        };
    res.writeHead(200, { ...headers, 'content-length': String(bomb.length) });
    res.end(bomb);
  });
  tracked(server, sockets);
  return {
    name: asFile
      ? `gzip bomb as a .gz file (${(bomb.length / MiB).toFixed(1)} MiB)`
      : `gzip bomb as Content-Encoding (${(bomb.length / MiB).toFixed(1)} MiB)`,
    port: await listen(server),
    path: asFile ? '/sitemap.xml.gz' : '/',
    close: closer(server, sockets, new Set()),
  };
}

/** /a → /b → /a, and /n/1 → /n/2 → … without end. */
async function redirects(endless: boolean): Promise<Attack> {
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    const p = path(req.url);
    let location: string;
    if (endless) {
      const n = Number(/\/n\/(\d+)/.exec(p)?.[1] ?? 0);
      location = `/n/${n + 1}`;
    } else {
      location = p === '/b' ? '/a' : '/b';
    }
    res.writeHead(302, { location, 'content-length': '0' });
    res.end();
  });
  tracked(server, sockets);
  return {
    name: endless ? 'endless redirects' : 'redirect loop',
    port: await listen(server),
    path: endless ? '/n/0' : '/a',
    close: closer(server, sockets, new Set()),
  };
}

/** 50 MB of HTML, as fast as the socket takes it. */
async function hugePage(): Promise<Attack> {
  const sockets = new Set<Socket>();
  const size = 50 * 1000 * 1000;
  const block = Buffer.from(`<p>${'lorem ipsum '.repeat(80)}</p>\n`);
  const server = createHttpServer((req, res) => {
    res.writeHead(200, {
      'content-type': path(req.url).includes('sitemap') ? 'application/xml' : 'text/html',
      'content-length': String(size),
    });
    let sent = 0;
    const head = Buffer.from('<!doctype html><html><head><title>huge</title></head><body>');
    res.write(head);
    sent += head.length;
    const pump = () => {
      while (sent < size) {
        const piece = block.subarray(0, Math.min(block.length, size - sent));
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  });
  tracked(server, sockets);
  return { name: '50 MB HTML page', port: await listen(server), path: '/', close: closer(server, sockets, new Set()) };
}

const path = (url: string | undefined) => (url ?? '/').split('?')[0];

const TOOLS = ['meta-tags', 'robots', 'headers', 'sitemap'] as const;
/** The deadline each tool gives its fetch (tools.service): the safe client's total deadline, 60 s for sitemaps. */
const TOOL_DEADLINE_MS: Record<(typeof TOOLS)[number], number> = {
  'meta-tags': SAFE_HTTP_DEFAULTS.totalTimeoutMs,
  robots: SAFE_HTTP_DEFAULTS.totalTimeoutMs,
  headers: SAFE_HTTP_DEFAULTS.totalTimeoutMs,
  sitemap: 60_000,
};
/** Scheduling slack on top of a deadline (two cores shared with other work). */
const SLACK_MS = 5_000;
/** Budget for a whole audit of one hostile site: robots.txt (15 s), the start page (20 s), sitemap (60 s), slack. */
const AUDIT_BUDGET_MS = 120_000;
/**
 * Peak RSS growth allowed over the process's RSS before a round: a few capped bodies (5 MiB, 50 MiB for sitemaps
 * streamed).
 */
const API_MEMORY_BUDGET_MIB = 150;
const WORKER_MEMORY_BUDGET_MIB = 200;

export const drill: Drill = {
  description:
    'bounded resources: trickled headers, 1 GB bodies, gzip bombs, redirect loops, 50 MB pages → in time and memory',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const inflated = quick ? 256 * MiB : 1024 * MiB;
    const bomb = await gzipOfZeros(inflated);
    const attacks = [
      await trickleHeaders(),
      await claimsOneGigabyte(),
      await gzipBomb(bomb, false),
      await gzipBomb(bomb, true),
      await redirects(false),
      await redirects(true),
      await hugePage(),
    ];
    log(`${attacks.length} hostile servers; gzip bomb ${(bomb.length / MiB).toFixed(1)} MiB → ${inflated / MiB} MiB`);
    const platform = await startPlatform({
      apis: 1,
      workerGroups: 1,
      env: {
        DEFAULT_PLAN: 'ENTERPRISE',
        SAFE_HTTP_ALLOW: HOST,
        SAFE_HTTP_RESOLVE: `${HOST}=127.0.0.1`,
        ANONYMOUS_RATE_PER_MINUTE: '100000',
        WORKER_CONCURRENCY: String(attacks.length),
      },
    });
    const figures: Record<string, unknown> = {};
    const credentials: { what: string; value: string }[] = [];
    try {
      const api = apiClient(platform.apis[0].baseUrl);
      const apiPid = platform.apis[0].pid;
      await sleep(1000);
      const workerPids = () =>
        childPids(platform.workers[0].pid).filter((pid) => /workers\/(all|audit)\.worker/.test(cmdline(pid)));

      // Round 1: the tools. Quick form: every cell at once; full form: one attack at a time, its four tools together.
      const toolRows: { attack: string; tool: string; ms: number; status: number; error: string }[] = [];
      const apiPeaks: Record<string, { before: number; peak: number | null }> = {};
      const runTools = async (group: Attack[], label: string) => {
        const base = rssMiB(apiPid) ?? 0;
        resetPeakRss(apiPid);
        await Promise.all(
          group.flatMap((attack) =>
            TOOLS.map(async (tool) => {
              const path = tool === 'sitemap' || attack.path !== '/sitemap.xml.gz' ? attack.path : '/';
              const url = `http://${HOST}:${attack.port}${path}`;
              const res = await api.request(`/api/tools/${tool}`, {
                method: 'POST',
                body: { url },
                timeoutMs: 180_000,
              });
              toolRows.push({
                attack: attack.name,
                tool,
                ms: Math.round(res.ms),
                status: res.status,
                error: res.json?.error ?? (res.status === 200 ? '(report)' : res.text.slice(0, 100)),
              });
            }),
          ),
        );
        const peak = peakRssMiB(apiPid);
        apiPeaks[label] = { before: base, peak };
        expect(
          peak === null || peak - base <= API_MEMORY_BUDGET_MIB,
          `tools × ${label}: API peak RSS ${peak} MiB, ${peak! - base} MiB over its ${base} MiB before ` +
            `(budget ${API_MEMORY_BUDGET_MIB})`,
        );
      };
      if (quick) await runTools(attacks, 'all at once');
      else for (const attack of attacks) await runTools([attack], attack.name);
      for (const row of toolRows) {
        const budget = TOOL_DEADLINE_MS[row.tool as (typeof TOOLS)[number]] + SLACK_MS;
        expect(row.ms <= budget, `${row.tool} × ${row.attack}: ${row.ms} ms (budget ${budget})`);
        // A refusal is a 400 with its reason; a 200 is acceptable only as a report on the part that was read.
        expect(row.status === 400 || row.status === 200, `${row.tool} × ${row.attack}: ${row.status} ${row.error}`);
        log(`tool ${row.tool.padEnd(9)} × ${row.attack}: ${row.status} in ${row.ms} ms — ${row.error}`);
      }
      expect(platform.apis[0].alive(), 'the API process died');

      // Round 2: one audit per hostile site, all at once.
      const user = await signUp(api, `bounded-${Date.now()}@drill.test`, `pw-${randomBytes(9).toString('hex')}`);
      credentials.push({ what: 'password', value: user.password }, ...sessionSecrets(user.cookie, 'session'));
      const auth = { cookie: user.cookie };
      const workerBase = Object.fromEntries(workerPids().map((pid) => [pid, rssMiB(pid) ?? 0]));
      for (const pid of workerPids()) resetPeakRss(pid);
      // Quick form: the attacks that end in seconds (the slow ones cost a minute per audit: robots, page, sitemap
      // deadlines).
      const audited = quick ? attacks.filter((a) => !a.slow) : attacks;
      const auditRows = await Promise.all(
        audited.map(async (attack) => {
          const project = must(
            await api.request('/api/projects', {
              method: 'POST',
              headers: auth,
              body: {
                url: `http://${HOST}:${attack.port}${attack.path === '/sitemap.xml.gz' ? '/' : attack.path}`,
                name: attack.name,
              },
            }),
            200,
            'project',
          ).project;
          const started = must(
            await api.request(`/api/projects/${project.id}/audit`, { method: 'POST', headers: auth }),
            200,
            'audit',
          );
          const { audit, ms } = await waitForAudit(
            api,
            user.cookie,
            project.id,
            started.auditId,
            AUDIT_BUDGET_MS + 30_000,
          );
          // What the audit shows for the hostile start page.
          const pages = await api.gql(
            'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { pages(first: 3) { nodes { url ' +
              'statusCode error } } } }',
            { p: project.id, a: started.auditId },
            auth,
          );
          const startPage = pages.json?.data?.audit?.pages?.nodes?.[0] as
            { statusCode: number | null; error: string | null } | undefined;
          return {
            attack: attack.name,
            ms: Math.round(ms),
            status: audit?.status as string | undefined,
            error: audit?.error as string | null,
            pages: audit?.pagesCrawled as number | undefined,
            startPage: startPage
              ? `${startPage.statusCode ?? 'no status'}: ${startPage.error ?? '(no error)'}`
              : '(no page)',
          };
        }),
      );
      const workerPeaks = workerPids().map((pid) => ({ pid, base: workerBase[pid] ?? null, peak: peakRssMiB(pid) }));
      for (const row of auditRows) {
        log(
          `audit × ${row.attack}: ${row.status} in ${row.ms} ms, ${row.pages} pages ` +
            `— ${row.error ?? '(no error)'}; start page ${row.startPage}`,
        );
        expect(
          row.ms <= AUDIT_BUDGET_MS && !!row.status && ['COMPLETED', 'FAILED', 'CANCELLED'].includes(row.status),
          `audit × ${row.attack}: ${row.status} after ${row.ms} ms (budget ${AUDIT_BUDGET_MS})`,
        );
      }
      for (const w of workerPeaks) {
        expect(
          w.peak === null || w.base === null || w.peak - w.base <= WORKER_MEMORY_BUDGET_MIB,
          `audit worker ${w.pid}: peak RSS ${w.peak} MiB from ${w.base} MiB (budget +${WORKER_MEMORY_BUDGET_MIB})`,
        );
      }
      expect(platform.workers[0].alive(), 'the worker group died');
      if (process.env.DRILL_VERBOSE)
        for (const line of platform
          .logs()
          .split('\n')
          .filter((l) => /"level":(40|50|60)/.test(l)))
          log(line.slice(0, 600));
      Object.assign(figures, {
        gzipBomb: { compressedMiB: +(bomb.length / MiB).toFixed(2), inflatedMiB: inflated / MiB },
        tools: toolRows,
        apiPeakRssMiB: apiPeaks,
        audits: auditRows,
        workerPeakRssMiB: workerPeaks,
        budgets: {
          toolMs: TOOL_DEADLINE_MS,
          slackMs: SLACK_MS,
          auditMs: AUDIT_BUDGET_MS,
          apiMiB: API_MEMORY_BUDGET_MIB,
          workerMiB: WORKER_MEMORY_BUDGET_MIB,
        },
      });
    } finally {
      keepLogs('bounded', platform.logs(), credentials);
      await platform.stop();
      for (const a of attacks) await a.close();
    }
    return result(figures);
  },
};

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
