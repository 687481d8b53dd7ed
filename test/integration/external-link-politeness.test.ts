/**
 * Politeness per address (issue 61, findings 5 and 6), seen from the servers: many host names resolving to one victim
 * address never get more requests in flight there than the per-address limit, several audits of one process
 * together included; a HEAD refused with 405 and its GET both count in the audit's cap of requests to one address,
 * and the links past it are reported as not checked, with that reason, never as broken; and one link redirecting to a
 * refused address or a dead domain is that link's answer only: the host's other links are asked, a 404 among them
 * reported broken.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { externalLinkGaps, withNotTried } from '../../src/audits/index.js';
import type { LookupFunction } from '../../src/platform/safe-http/index.js';
import {
  ADDRESS_CAP_REASON,
  createConfiguredSafeHttpClient,
  parseResolvePins,
  pinnedLookup,
  type SafeHttpClient,
} from '../../src/platform/safe-http/index.js';
import { auditSite, FIXTURE_USER_AGENT, reportedUrls } from '../fixtures/sites/audit-harness.js';
import { startFixtureSite, type FixtureRoutes, type RunningSite } from '../fixtures/sites/fixture-server.js';
import { page } from '../fixtures/sites/page-builder.js';
import { image, textFile } from '../fixtures/sites/shared-assets.js';

const VICTIM_ADDRESS = '127.0.0.2';
const MIXED_ADDRESS = '127.0.0.3';

/** A server that counts what reaches it: requests by method, and the most in flight at once (exact, not sampled). */
interface Victim {
  port: number;
  total: number;
  head: number;
  get: number;
  inFlight: number;
  peak: number;
  close(): Promise<void>;
}

async function startVictim(address: string, getDelayMs: number): Promise<Victim> {
  const victim = { total: 0, head: 0, get: 0, inFlight: 0, peak: 0 } as Victim;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    victim.total++;
    victim.inFlight++;
    victim.peak = Math.max(victim.peak, victim.inFlight);
    // 'finish': the answer is handed to the socket, before the client can read it and send the next request.
    res.once('finish', () => victim.inFlight--);
    if (req.method === 'HEAD') {
      victim.head++;
      res.writeHead(405, { allow: 'GET', 'content-length': '0' }).end();
      return;
    }
    victim.get++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('there'), getDelayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, address, () => resolve()));
  victim.port = (server.address() as AddressInfo).port;
  victim.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return victim;
}

const refuseUnpinned: LookupFunction = (hostname, _options, callback) =>
  callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);

/** The platform's configured client: `pins` resolve, every other name fails as a dead domain (no real DNS query). */
function politeClient(pins: Record<string, string>, limits: { inFlight: number; perSecond: number; cap: number }) {
  const resolve = Object.entries(pins)
    .map(([host, address]) => `${host}=${address}`)
    .join(',');
  return createConfiguredSafeHttpClient(
    {
      SAFE_HTTP_ALLOW: ['127.0.0.0/8'],
      SAFE_HTTP_RESOLVE: resolve,
      CRAWLER_USER_AGENT: FIXTURE_USER_AGENT,
      LINK_CHECK_ADDRESS_CONCURRENCY: limits.inFlight,
      LINK_CHECK_ADDRESS_RATE: limits.perSecond,
      LINK_CHECK_ADDRESS_CAP: limits.cap,
    },
    { lookup: pinnedLookup(parseResolvePins(resolve), refuseUnpinned), headersTimeoutMs: 5_000, totalTimeoutMs: 8_000 },
  );
}

const OPEN_SITE_FILES: FixtureRoutes = {
  '/robots.txt': textFile('User-agent: *\nAllow: /\n'),
  '/favicon.ico': image(),
};

/** A home site of `pages` pages, page p linking `links(p)` (the first page links the others). */
async function homeSite(host: string, pages: number, links: (p: number) => string[]) {
  const home = await startFixtureSite({ host });
  const routes: FixtureRoutes = { ...OPEN_SITE_FILES };
  for (let p = 0; p < pages; p++) {
    const path = p === 0 ? '/' : `/p/${p}`;
    const nav = p === 0 ? Array.from({ length: pages - 1 }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`) : [];
    const anchors = links(p).map((url, k) => `<a href="${url}">Reference ${p}-${k}</a>`);
    routes[path] = { body: page(home.origin, path, { bodyExtra: `<p>${[...nav, ...anchors].join(' ')}</p>` }) };
  }
  home.serve(routes);
  return home;
}

const anchors = (urls: string[]) => urls.map((href, k) => `<a href="${href}">Link ${k}</a>`).join(' ');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});
afterAll(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

describe('external link checks, per resolved address', () => {
  it('keep at most the limit in flight at one address however many names lead there, across audits', async () => {
    const NAMES = 50;
    const victim = await startVictim(VICTIM_ADDRESS, 40);
    cleanups.push(() => victim.close());
    const names = Array.from({ length: NAMES }, (_, n) => `n${n}.victim.test`);
    // Two sites (two audits of one worker process, as two tenants would have), each linking every name twice.
    const linksOf = (tag: string) => (p: number) =>
      names.map((name) => `http://${name}:${victim.port}/${tag}/${p}/${name}`);
    const homeA = await homeSite('home-a.test', 2, linksOf('a'));
    const homeB = await homeSite('home-b.test', 2, linksOf('b'));
    cleanups.push(
      () => homeA.close(),
      () => homeB.close(),
    );
    const pins = Object.fromEntries([
      ...names.map((name) => [name, VICTIM_ADDRESS]),
      ['home-a.test', '127.0.0.1'],
      ['home-b.test', '127.0.0.1'],
    ]);
    const client: SafeHttpClient = politeClient(pins, { inFlight: 6, perSecond: 1_000, cap: 10_000 });
    cleanups.push(() => client.close());

    const budget = { externalLinkBudget: 10_000 };
    const [a, b] = await Promise.all([
      auditSite(client, homeA.url('/'), budget),
      auditSite(client, homeB.url('/'), budget),
    ]);

    const targets = 2 * 2 * NAMES;
    // Every link asked (HEAD refused with 405, then GET), and answered.
    expect(victim.head).toBe(targets);
    expect(victim.get).toBe(targets);
    for (const run of [a, b]) {
      const checked = [...run.outcome.site.linkTargets].filter(([url]) => url.includes('.victim.test'));
      expect(checked).toHaveLength(2 * NAMES);
      for (const [url, info] of checked) expect(info.status, url).toBe(200);
    }
    // 100 names x 6 per name would allow 600 at once; the address allows 6, both audits together.
    expect(victim.peak).toBeLessThanOrEqual(6);
    expect(victim.peak).toBeGreaterThan(1);
  });

  it('count a GET after a refused HEAD in the cap per audit; links past it are not checked, and say why', async () => {
    const CAP = 30;
    const LINKS = 40;
    const victim = await startVictim(VICTIM_ADDRESS, 0);
    cleanups.push(() => victim.close());
    const names = Array.from({ length: LINKS }, (_, n) => `c${n}.victim.test`);
    const home = await homeSite('home-cap.test', 1, () =>
      names.map((name) => `http://${name}:${victim.port}/doc/${name}`),
    );
    cleanups.push(() => home.close());
    const pins = Object.fromEntries([...names.map((n) => [n, VICTIM_ADDRESS]), ['home-cap.test', '127.0.0.1']]);
    const client = politeClient(pins, { inFlight: 6, perSecond: 1_000, cap: CAP });
    cleanups.push(() => client.close());

    const run = await auditSite(client, home.url('/'), { externalLinkBudget: 10_000 });

    // Exactly the cap reached the address: each HEAD and each GET counted.
    expect(victim.total).toBe(CAP);
    expect(victim.head + victim.get).toBe(CAP);
    const infos = [...run.outcome.site.linkTargets].filter(([url]) => url.includes('.victim.test'));
    expect(infos).toHaveLength(LINKS);
    const answered = infos.filter(([, info]) => info.status === 200);
    const overCap = infos.filter(([, info]) => info.couldNotCheck === ADDRESS_CAP_REASON);
    expect(answered.length).toBe(victim.get);
    expect(answered.length + overCap.length).toBe(LINKS);
    expect(overCap.length).toBeGreaterThanOrEqual(LINKS - CAP / 2);
    for (const [, info] of overCap) expect(info.failure).toBeUndefined();
    // Never reported broken, and listed as not checked with the reason.
    expect(reportedUrls(run, 'LINKS_EXTERNAL_BROKEN')).toEqual([]);
    const unchecked = run.outcome.crawl.uncheckedLinks.filter((u) => u.url.includes('.victim.test'));
    expect(unchecked).toHaveLength(overCap.length);
    expect(new Set(unchecked.map((u) => u.reason))).toEqual(new Set([ADDRESS_CAP_REASON]));
    // Counted as not sent past the per-address cap, never as no answer: no request went out for them.
    expect(run.outcome.counts.externalLinks).toMatchObject({
      found: LINKS,
      checked: answered.length,
      couldNotCheck: overCap.length,
      refusedByPolicy: 0,
      addressCap: overCap.length,
    });
    const e = withNotTried(run.outcome.counts).externalLinks;
    expect(e).toMatchObject({ addressCap: overCap.length, noAnswer: 0, notTried: 0 });
    expect(externalLinkGaps(e)).toEqual([`${overCap.length} not sent: per-address cap`]);
  });
});

describe('one redirecting link', () => {
  let mixed: RunningSite;

  it("is its own answer: the host's other links are asked, a 404 among them reported broken", async () => {
    mixed = await startFixtureSite({ host: 'mixed.test', listenAddress: MIXED_ADDRESS });
    cleanups.push(() => mixed.close());
    const url = (path: string) => `${mixed.origin}${path}`;
    mixed.serve({
      // A refused address (a literal private one: refused before any connection) and a dead domain.
      '/to-refused': { status: 302, headers: { location: 'http://10.0.0.1/admin' } },
      '/to-dead': { status: 302, headers: { location: 'http://dead-domain.invalid/' } },
      '/ok': { body: 'fine' },
      '/also-ok': { body: 'fine' },
    });
    // The redirecting links come on the first page, the others only on a later one: they are asked after the
    // redirects failed, when a memo of the host's failure would answer for them.
    const home = await startFixtureSite({ host: 'home-poison.test' });
    cleanups.push(() => home.close());
    home.serve({
      ...OPEN_SITE_FILES,
      '/': {
        body: page(home.origin, '/', {
          bodyExtra: `<p>${anchors([url('/to-refused'), url('/to-dead'), '/later'])}</p>`,
        }),
      },
      '/later': {
        delayMs: 500,
        body: page(home.origin, '/later', {
          bodyExtra: `<p>${anchors([url('/missing'), url('/ok'), url('/also-ok')])}</p>`,
        }),
      },
    });
    const client = politeClient(
      { 'mixed.test': MIXED_ADDRESS, 'home-poison.test': '127.0.0.1' },
      { inFlight: 6, perSecond: 1_000, cap: 500 },
    );
    cleanups.push(() => client.close());

    const run = await auditSite(client, home.url('/'), { externalLinkBudget: 10_000 });
    const targets = run.outcome.site.linkTargets;

    // Every link of the host was asked.
    const asked = new Set(mixed.requests.map((r) => r.path));
    for (const path of ['/to-refused', '/to-dead', '/missing', '/ok', '/also-ok']) expect(asked, path).toContain(path);
    expect(targets.get(url('/ok'))).toMatchObject({ status: 200 });
    expect(targets.get(url('/also-ok'))).toMatchObject({ status: 200 });
    expect(targets.get(url('/missing'))).toMatchObject({ status: 404 });
    expect(targets.get(url('/missing'))?.couldNotCheck).toBeUndefined();
    // Reported broken, on the page that links it.
    const broken = run.occurrences.filter((o) => o.code === 'LINKS_EXTERNAL_BROKEN');
    expect(broken.map((o) => o.url)).toEqual([home.url('/later')]);
    expect(JSON.stringify(broken[0].evidence)).toContain(url('/missing'));
    // The redirecting links carry their own reasons.
    const refused = targets.get(url('/to-refused'));
    expect(refused?.refusedByPolicy).toBe(true);
    expect(refused?.couldNotCheck).toMatch(/10\.0\.0\.1/);
    const dead = targets.get(url('/to-dead'));
    expect(dead?.couldNotCheck).toMatch(/dead-domain\.invalid/);
    for (const path of ['/ok', '/also-ok', '/missing']) expect(targets.get(url(path))?.refusedByPolicy).toBeUndefined();
  });
});
