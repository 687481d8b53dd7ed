import http from 'node:http';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../src/platform/redis.js';
import { QUEUES, createQueue } from '../../src/platform/queues.js';
import { RankCheckRunner, dailyRankPattern } from '../../src/keywords/index.js';
import { createTestApp, gql, reportQueueError, uniq, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, type Org } from '../factories.js';
import { startWorker, waitFor } from '../support/worker-process.js';

/**
 * A local server speaking Serper's documented protocol (POST /search, X-API-KEY, { q, gl, hl, num, page } ->
 * { organic: [{ position, link, title }] }). The project domain ranks 3rd for "shoes", is absent for "boots";
 * the competitor ranks 1st for both; "broken" answers 429 forever.
 */
function fakeSerper(projectHost: string, rivalHost: string) {
  const calls: { q: string; page: number; key: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { q: raw, page = 1 } = JSON.parse(body || '{}');
      const q = String(raw).toLowerCase();
      calls.push({ q, page, key: req.headers['x-api-key'] as string | undefined });
      if (req.headers['x-api-key'] !== 'test-key')
        return res.writeHead(401).end(JSON.stringify({ message: 'Unauthorized.' }));
      if (q === 'broken') return res.writeHead(429).end(JSON.stringify({ message: 'Too many requests' }));
      const urls = Array.from({ length: 10 }, (_, i) => `https://filler-${page}-${i}.example/`);
      if (page === 1) {
        urls[0] = `https://www.${rivalHost}/best`;
        if (q === 'shoes') urls[2] = `https://${projectHost}/shoes`;
      }
      const organic = urls.map((link, i) => ({ position: (page - 1) * 10 + i + 1, link, title: `Result ${i}` }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ organic }));
    });
  });
  return {
    calls,
    listen: () =>
      new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const projectHost = `mine-${uniq()}.test`;
const rivalHost = `rival-${uniq()}.test`;
const serper = fakeSerper(projectHost, rivalHost);
let rival: http.Server;
let rivalPort: number;
let t: TestApp;
let env: Record<string, string>;
let org: Org;
let key: string;
let projectId: string;

beforeAll(async () => {
  const serpPort = await serper.listen();
  rival = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><title>Rival homepage with a reasonable ' +
        'title</title></head><body><h1>Rival</h1></body></html>',
    );
  });
  rivalPort = await new Promise<number>((r) =>
    rival.listen(0, '127.0.0.1', () => r((rival.address() as { port: number }).port)),
  );
  env = {
    REDIS_PREFIX: `rank-${uniq()}`,
    SERP_PROVIDER: 'serper',
    SERP_API_KEY: 'test-key',
    SERP_BASE_URL: `http://127.0.0.1:${serpPort}`,
    SERP_DEPTH: '20',
    SERP_RETRY_DELAY_MS: '200',
    METRICS_TOKEN: 'rank-test-metrics-token',
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${rivalHost}=127.0.0.1`,
  };
  t = await createTestApp(env);
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    payload: { url: `https://${projectHost}/` },
  });
  projectId = res.json().project.id;
}, 60_000);
afterAll(async () => {
  await t.close();
  await serper.close();
  rival.close();
});

const b = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: org.owner.cookie, origin: t.config.baseUrl },
    ...(payload ? { payload } : {}),
  });

describe('keywords', () => {
  it('adds in bulk, normalized and deduplicated; lists with latest ranking (null before the first check)', async () => {
    const first = await b('POST', `/api/projects/${projectId}/keywords`, {
      keywords: ['  Shoes ', 'shoes', 'boots', 'Broken'],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().keywords.map((k: { term: string }) => k.term)).toEqual(['Shoes', 'boots', 'Broken']);
    expect(first.json().keywords[0]).toEqual({
      id: expect.any(String),
      term: 'Shoes',
      position: null,
      url: null,
      lastChecked: null,
      lastCheck: null,
    });
    const again = await b('POST', `/api/projects/${projectId}/keywords`, { keywords: ['SHOES', 'boots'] });
    expect(again.json()).toEqual({ keywords: [] });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/keywords`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(list.json().keywords).toHaveLength(3);
    const projects = await t.app.inject({
      method: 'GET',
      url: '/api/v1/projects',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(projects.json().projects[0]._count).toEqual({ audits: 0, keywords: 3, competitors: 0 });
  });

  it('rejects bad input and enforces the keyword quota (all or nothing)', async () => {
    expect((await b('POST', `/api/projects/${projectId}/keywords`, { keywords: [] })).statusCode).toBe(400);
    expect(
      (await b('POST', `/api/projects/${projectId}/keywords`, { keywords: ['x'], device: 'tablet' })).statusCode,
    ).toBe(400);
    expect(
      (await b('POST', `/api/projects/${projectId}/keywords`, { keywords: ['x'], country: 'usa' })).statusCode,
    ).toBe(400);
    const freeOrg = await anOrg(t);
    const p = (
      await gql(
        t,
        'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
        { u: `https://free-${uniq()}.test/` },
        { cookie: freeOrg.owner.cookie },
      )
    ).body.data.createProject.id;
    const eleven = Array.from({ length: 11 }, (_, i) => `term ${i}`);
    const over = await gql(
      t,
      'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id } }',
      { p, k: eleven },
      { cookie: freeOrg.owner.cookie },
    );
    expect(over.body.errors?.[0].extensions?.code).toBe('PLAN_LIMIT');
    const ten = await gql(
      t,
      'mutation($p: ID!, $k: [String!]!) { addKeywords(projectId: $p, input: { keywords: $k }) { id } }',
      { p, k: eleven.slice(0, 10) },
      { cookie: freeOrg.owner.cookie },
    );
    expect(ten.body.data.addKeywords).toHaveLength(10);
  });
});

describe('the last check on every surface', () => {
  it('a check without a configured provider is FAILED with its reason over /api/v1, /api and GraphQL', async () => {
    const other = (await b('POST', '/api/projects', { url: `https://noprov-${uniq()}.test/` })).json().project
      .id as string;
    const [added] = (await b('POST', `/api/projects/${other}/keywords`, { keywords: ['unchecked term'] })).json()
      .keywords;
    // What the rank worker runs for a keyword job when SERP_PROVIDER is unset.
    const runner = new RankCheckRunner(
      t.runtime.orm,
      null as never,
      null,
      { depth: 10, snapshotSize: 10, retryDelayMs: 100 },
      t.runtime.logger,
    );
    const before = Date.now();
    expect(await runner.checkKeyword(added.id, true)).toEqual({
      status: 'FAILED',
      error: expect.stringMatching(/No SERP provider is configured/),
    });
    const expected = {
      status: 'FAILED',
      checkedAt: expect.any(String),
      error: expect.stringMatching(/No SERP provider is configured: set SERP_PROVIDER/),
    };

    const v1 = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${other}/keywords`,
        headers: { authorization: `Bearer ${key}` },
      })
    ).json().keywords[0];
    const api = (await b('GET', `/api/projects/${other}/keywords`)).json().keywords[0];
    const graph = (
      await gql(
        t,
        'query($p: ID!) { keywords(projectId: $p) { position lastError lastCheck { status checkedAt error } } }',
        { p: other },
        { cookie: org.owner.cookie },
      )
    ).body.data.keywords[0];
    for (const k of [v1, api, graph]) {
      expect(k).toMatchObject({ position: null, lastCheck: expected });
      expect(Date.parse(k.lastCheck.checkedAt)).toBeGreaterThanOrEqual(before - 5_000);
    }
    expect(graph.lastError).toBe(graph.lastCheck.error);
    expect(v1).toMatchObject({ lastChecked: null, url: null });
    await b('DELETE', `/api/projects/${other}`);
  }, 30_000);
});

describe('rank checks in the rank worker', () => {
  it('checks every keyword through the provider; positions, failures and history are recorded truthfully', async () => {
    const worker = startWorker('rank.worker', env);
    try {
      const queued = await gql(
        t,
        'mutation($p: ID!) { checkRankings(projectId: $p) { jobId keywords } }',
        { p: projectId },
        { cookie: org.owner.cookie },
      );
      expect(queued.body.data.checkRankings.keywords).toBe(3);
      const keywords = await waitFor(
        '3 keywords checked',
        async () => {
          const r = await gql(
            t,
            'query($p: ID!) { keywords(projectId: $p) { term position url lastChecked lastError lastCheck { ' +
              'status checkedAt error } } }',
            { p: projectId },
            { cookie: org.owner.cookie },
          );
          const list = r.body.data.keywords as {
            term: string;
            position: number | null;
            lastChecked: string | null;
            lastError: string | null;
            lastCheck: unknown;
          }[];
          return list.every((k) => k.lastChecked || k.lastError) ? list : null;
        },
        90_000,
        500,
      );
      const by = Object.fromEntries(keywords.map((k) => [k.term, k]));
      expect(by.Shoes).toMatchObject({ position: 3, url: `https://${projectHost}/shoes`, lastError: null });
      expect(by.boots).toMatchObject({ position: null, url: null, lastError: null, lastChecked: expect.any(String) });
      expect(by.Broken).toMatchObject({ position: null, lastChecked: null, lastError: expect.stringMatching(/429/) });
      // The latest check, whatever its outcome: a failed one says why and when.
      expect(by.Broken.lastCheck).toEqual({
        status: 'FAILED',
        checkedAt: expect.any(String),
        error: expect.stringMatching(/429/),
      });
      expect(by.boots.lastCheck).toEqual({ status: 'OK', checkedAt: by.boots.lastChecked, error: null });
      // Each snapshot keeps the results that may be the site's apart, with the needle that picked them.
      const { rows: stored } = await t.runtime.pool.query<{ term: string; needle: string; site: { url: string }[] }>(
        `SELECT k.term, s.site_needle AS needle, s.site_results AS site FROM serp_snapshot s
         JOIN keyword k ON k.id = s.keyword_id WHERE k.project_id = $1`,
        [projectId],
      );
      expect(stored.map((r) => [r.term, r.needle, r.site.map((x) => x.url)]).sort()).toEqual(
        [
          ['Shoes', projectHost, [`https://${projectHost}/shoes`]],
          ['boots', projectHost, []],
        ].sort(),
      );
      // The worker process's SERP calls, errors and job durations reach the API's /metrics through Redis.
      const metric = (body: string, series: string) =>
        Number(new RegExp(`^${series.replace(/[{}"+]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(body)?.[1] ?? 0);
      const metrics = await waitFor(
        'metrics flushed',
        async () => {
          const body = (
            await t.app.inject({
              method: 'GET',
              url: '/metrics',
              headers: { authorization: 'Bearer rank-test-metrics-token' },
            })
          ).body;
          // A job's duration is recorded when the job returns, after its keyword's check is stored; the worker
          // flushes its metrics on a timer, so the SERP calls can arrive in one flush and the last job in the next.
          return metric(body, 'seo_serp_requests_total{provider="serper"}') >= serper.calls.length &&
            serper.calls.length > 0 &&
            metric(body, 'seo_job_duration_seconds_count{outcome="completed",queue="rank"}') >= 4
            ? body
            : null;
        },
        30_000,
        250,
      );
      expect(metric(metrics, 'seo_serp_requests_total{provider="serper"}')).toBe(serper.calls.length);
      expect(metric(metrics, 'seo_serp_errors_total{provider="serper",reason="http_429"}')).toBe(
        serper.calls.filter((c) => c.q === 'broken').length,
      );
      expect(
        metric(metrics, 'seo_job_duration_seconds_count{outcome="completed",queue="rank"}'),
      ).toBeGreaterThanOrEqual(4);
      // depth 20 = 2 pages per keyword; every call authenticated with the configured key
      expect(serper.calls.filter((c) => c.q.toLowerCase() === 'shoes').map((c) => c.page)).toEqual([1, 2]);
      expect(serper.calls.every((c) => c.key === 'test-key')).toBe(true);

      const rest = await b('GET', `/api/projects/${projectId}/keywords`);
      expect(rest.json().keywords.find((k: { term: string }) => k.term === 'Shoes')).toEqual({
        id: expect.any(String),
        term: 'Shoes',
        position: 3,
        url: `https://${projectHost}/shoes`,
        lastChecked: expect.any(String),
        lastCheck: { status: 'OK', checkedAt: expect.any(String), error: null },
      });
      // Over both REST surfaces, a failed check is no bare `position: null`: its status, time and reason are there.
      const v1 = await t.app.inject({
        method: 'GET',
        url: `/api/v1/projects/${projectId}/keywords`,
        headers: { authorization: `Bearer ${key}` },
      });
      for (const list of [rest.json().keywords, v1.json().keywords]) {
        expect(list.find((k: { term: string }) => k.term === 'Broken')).toEqual({
          id: expect.any(String),
          term: 'Broken',
          position: null,
          url: null,
          lastChecked: null,
          lastCheck: { status: 'FAILED', checkedAt: expect.any(String), error: expect.stringMatching(/429/) },
        });
      }
      // A second check, as the daily scheduler would queue it: history grows, oldest first.
      await t.runtime.pool.query(
        `UPDATE ranking SET checked_at = checked_at - interval '1 day' WHERE keyword_id IN (SELECT id ` +
          `FROM keyword WHERE project_id = $1)`,
        [projectId],
      );
      const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      const queue = new Queue('rank', { connection: redis, prefix: `${env.REDIS_PREFIX}:bull` });
      await queue.add('check-project', { kind: 'check-project', projectId }, { jobId: `scheduled-${uniq()}` });
      await queue.close();
      await redis.quit();
      const history = await waitFor(
        'second check',
        async () => {
          const r = await b('GET', `/api/projects/${projectId}/keywords/rankings?days=30`);
          const shoes = r.json().rankings.find((k: { term: string }) => k.term === 'Shoes');
          return shoes?.history.length === 2 ? r.json().rankings : null;
        },
        90_000,
        500,
      );
      const shoes = history.find((k: { term: string }) => k.term === 'Shoes');
      expect(shoes.history).toHaveLength(2);
      expect(shoes.history.map((h: { position: number }) => h.position)).toEqual([3, 3]);
      const times = shoes.history.map((h: { checkedAt: string }) => Date.parse(h.checkedAt));
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      expect(history.find((k: { term: string }) => k.term === 'Broken').history).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 180_000);

  it('two worker processes starting together register the daily schedule once', async () => {
    const w1 = startWorker('rank.worker', env);
    const w2 = startWorker('rank.worker', env);
    try {
      await waitFor(
        'both ready',
        async () => w1.output.join('').includes('worker ready') && w2.output.join('').includes('worker ready'),
        60_000,
      );
      const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      const queue = new Queue('rank', { connection: redis, prefix: `${env.REDIS_PREFIX}:bull` });
      const schedulers = (await queue.getJobSchedulers()).filter(
        (s) => s.key.includes(projectId) || s.id?.includes(projectId),
      );
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ pattern: dailyRankPattern(projectId), tz: 'UTC' });
      await queue.close();
      await redis.quit();
    } finally {
      await w1.stop();
      await w2.stop();
    }
  }, 90_000);
});

describe('competitors', () => {
  const queueOf = (name: 'rank' | 'competitor', redis: ReturnType<typeof createRedis>) =>
    createQueue(QUEUES[name], redis, env.REDIS_PREFIX, reportQueueError);
  const profileOf = async (competitorId: string) => {
    const { rows } = await t.runtime.pool.query('SELECT profile_checked_at FROM competitor WHERE id = $1', [
      competitorId,
    ]);
    return rows[0]?.profile_checked_at as Date | null;
  };

  it(
    'adds a competitor by URL (stored as host), profiles its homepage on the competitor queue and reads ' +
      'positions from the same snapshots',
    async () => {
      const redis = createRedis(t.config.REDIS_URL);
      const competitorQueue = queueOf('competitor', redis);
      const rankQueue = queueOf('rank', redis);
      let worker: ReturnType<typeof startWorker> | undefined;
      try {
        const keywordCalls = () => serper.calls.filter((c) => c.q !== 'broken').length;
        const callsBefore = keywordCalls();
        // The fixture homepage listens on a test port, so the competitor is given with it (kept in the host).
        const added = await b('POST', `/api/projects/${projectId}/competitors`, {
          domain: `http://www.${rivalHost}:${rivalPort}/some/page`,
        });
        expect(added.statusCode).toBe(200);
        expect(added.json().competitor).toMatchObject({
          domain: `${rivalHost}:${rivalPort}`,
          keywordsInTop10: 2,
          averagePosition: 1,
        });
        const competitorId = added.json().competitor.id as string;
        // Its profile job waits on the competitor queue (no worker yet), never on the rank queue.
        expect(await (await competitorQueue.getJob(`profile-${competitorId}`))?.getState()).toBe('waiting');
        expect(await rankQueue.getJob(`profile-${competitorId}`)).toBeUndefined();
        const dup = await b('POST', `/api/projects/${projectId}/competitors`, { domain: `${rivalHost}:${rivalPort}` });
        expect(dup.statusCode).toBe(400);
        worker = startWorker('competitor.worker', env);
        const profiled = await waitFor(
          'homepage profile',
          async () => {
            const r = await b('GET', `/api/projects/${projectId}/competitors`);
            const c = r.json().competitors[0];
            return c?.overallScore !== null ? c : null;
          },
          60_000,
          500,
        );
        expect(profiled).toEqual({
          id: expect.any(String),
          domain: `${rivalHost}:${rivalPort}`,
          createdAt: expect.any(String),
          overallScore: expect.any(Number),
          keywordsInTop10: 2,
          averagePosition: 1,
          lastChecked: expect.any(String),
        });
        expect(await (await competitorQueue.getJob(`profile-${competitorId}`))?.getState()).toBe('completed');
        expect(worker.output.join('')).toMatch(/"queues":\["competitor"\].*"msg":"worker ready"/);
        expect(await competitorQueue.getWorkers()).toHaveLength(1); // the competitor worker process serves the queue
        expect(keywordCalls()).toBe(callsBefore); // no extra provider calls
        const projects = await t.app.inject({
          method: 'GET',
          url: '/api/v1/projects',
          headers: { authorization: `Bearer ${key}` },
        });
        expect(projects.json().projects[0]._count.competitors).toBe(1);
      } finally {
        await worker?.stop();
        await competitorQueue.close();
        await rankQueue.close();
        await redis.quit();
      }
    },
    90_000,
  );

  it('a profile job left on the rank queue by an older release moves to the competitor queue and runs', async () => {
    const redis = createRedis(t.config.REDIS_URL);
    const competitorQueue = queueOf('competitor', redis);
    const rankQueue = queueOf('rank', redis);
    const workers: ReturnType<typeof startWorker>[] = [];
    try {
      const added = await b('POST', `/api/projects/${projectId}/competitors`, { domain: `legacy-${uniq()}.example` });
      expect(added.statusCode).toBe(200);
      const competitorId = added.json().competitor.id as string;
      // As the previous release enqueued it: on the rank queue, with the same job id.
      await (await competitorQueue.getJob(`profile-${competitorId}`))?.remove();
      await rankQueue.add('competitor-profile', { kind: 'competitor-profile', competitorId } as never, {
        jobId: `profile-${competitorId}`,
      });
      workers.push(startWorker('rank.worker', env));
      await waitFor(
        'rank job done',
        async () => (await rankQueue.getJobState(`profile-${competitorId}`)) === 'completed',
        60_000,
        250,
      );
      expect((await rankQueue.getJob(`profile-${competitorId}`))!.returnvalue).toEqual({ movedTo: 'competitor' });
      // The rank worker does not profile: the job waits for a competitor worker.
      expect(await (await competitorQueue.getJob(`profile-${competitorId}`))?.getState()).toBe('waiting');
      expect(await profileOf(competitorId)).toBeNull();
      workers.push(startWorker('competitor.worker', env));
      await waitFor('profile of the moved job', () => profileOf(competitorId), 60_000, 250);
      expect(await (await competitorQueue.getJob(`profile-${competitorId}`))?.getState()).toBe('completed');
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await competitorQueue.close();
      await rankQueue.close();
      await redis.quit();
    }
  }, 120_000);
});

describe('tenant isolation and plans', () => {
  it('another organization gets 404 on every keyword and competitor route; PRO cannot add', async () => {
    const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const otherKey = await anApiKey(otherOrg);
    const h = { cookie: otherOrg.owner.cookie, origin: t.config.baseUrl };
    for (const [method, url, payload] of [
      ['GET', `/api/projects/${projectId}/keywords`],
      ['POST', `/api/projects/${projectId}/keywords`, { keywords: ['x'] }],
      ['GET', `/api/projects/${projectId}/keywords/rankings`],
      ['GET', `/api/projects/${projectId}/competitors`],
      ['POST', `/api/projects/${projectId}/competitors`, { domain: 'x.example' }],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: h, ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
    }
    const v1 = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/keywords`,
      headers: { authorization: `Bearer ${otherKey}` },
    });
    expect(v1.statusCode).toBe(404);

    // An organization of its own, made PRO after creating its project (the Pro plan's API access is read-only).
    // Downgrading the shared one instead met the PRO rate limit with the requests the earlier tests' polling made
    // in the same minute, on a loaded machine.
    const proOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const proHeaders = { cookie: proOrg.owner.cookie, origin: t.config.baseUrl };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: proHeaders,
      payload: { url: `https://pro-${projectHost}/` },
    });
    expect(created.statusCode, created.body).toBe(200);
    const proProject = created.json().project.id as string;
    await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', ['PRO', proOrg.id]);
    const asPro = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: proHeaders, ...(payload ? { payload } : {}) });
    expect((await asPro('GET', `/api/projects/${proProject}/keywords`)).statusCode).toBe(200);
    expect((await asPro('POST', `/api/projects/${proProject}/keywords`, { keywords: ['new'] })).statusCode).toBe(403);
    expect((await asPro('POST', `/api/projects/${proProject}/competitors`, { domain: 'new.example' })).statusCode).toBe(
      403,
    );
  });
});
