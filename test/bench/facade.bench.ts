import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { createRedis } from '../../src/platform/redis.js';
import { RateLimiter } from '../../src/identity/rate-limit.js';
import { ProjectService } from '../../src/projects/index.js';
import { createDomainRuntime, type DomainRuntime } from '../../schema/domain-runtime.js';
import type { FastPathSwitches } from '../../src/platform/fast-path/switches.js';
import { nativePoolOf } from '../../src/platform/db/native-query.js';
import { buildServer } from '../../facades/server.js';
import { v1Routes } from '../../facades/v1/routes.js';
import { createApiKey, createProject, setPlan, signUp, type TestApp } from '../support/app.js';
import { prepareBenchDatabase, benchDatabaseUrl, removeRedisKeys } from './bench-database.js';
import {
  HAND_WRITTEN_ROUTE_SCHEMA,
  buildHandWrittenServer,
  handWrittenProjectsHandler,
  listProjects,
  verifyKey,
} from './hand-written-route.js';
import { LoadClient, runInterleaved, type BenchTarget, type LoadSettings, type TargetSamples } from './load-client.js';
import { formatTable, summarize } from './bench-report.js';
import { formatStages, timeStage, type Stage, type StageTiming } from './stage-timer.js';

/**
 * GET /api/v1/projects through the real facade (REST route -> graphql-jit -> resolver -> service -> ORM)
 * against the same endpoint written by hand, plus Surface B and /graphql for the same list, all in one
 * interleaved run. Targets: facade / hand-written >= 0.95, and POST /graphql (where the web app lives) / hand-written
 * >= 0.90.
 */

const PROJECTS = 20;
const TARGET_RATIO = 0.95;
const GRAPHQL_TARGET_RATIO = 0.9;
/**
 * The ENTERPRISE Surface A allowance (120/min) would turn most bench requests into 429s. Both sides keep
 * the real Redis hit on the real bucket; only the limit it is compared with is raised.
 */
const BENCH_RATE_LIMIT = 1_000_000_000;
const HAND_IN_APP_PATH = '/bench/hand-written/projects';
const HAND_NATIVE_PATH = '/bench/hand-written-native-pool/projects';
/**
 * The headline comparison and the diagnostic closest to it, measured first in every round, interleaved (see
 * sliceOrder).
 */
const GROUP = ['hand-written', 'facade-v1', 'graphql', 'hand-native'] as const;

/**
 * BENCH_FAST_PATHS=1: the facade once more for each shortcut of src/platform/fast-path/, with that shortcut off
 * (a view of the same runtime: same connections and services, its own schema and principal resolver), measured in
 * the interleaved group beside the facade with every shortcut on. What each buys end to end (README there).
 */
interface FastPathVariant {
  name: string;
  /** The target with every shortcut on that this one is compared with. */
  of: 'facade-v1' | 'facade-api' | 'graphql';
  shortcut: string;
  off: Partial<FastPathSwitches>;
}
const FAST_PATH_VARIANTS: FastPathVariant[] = [
  { name: 'api-no-session-cookie', of: 'facade-api', shortcut: 'session principal', off: { sessionCookie: false } },
  { name: 'graphql-no-read-lane', of: 'graphql', shortcut: 'GraphQL read lane', off: { graphqlReadLane: false } },
];
const compareFastPaths = (): boolean => !['', '0', 'false'].includes(process.env.BENCH_FAST_PATHS ?? '');

const intFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

const log = (line: string) => process.stderr.write(`[bench:facade] ${line}\n`);
const origin = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function fetchJson(url: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`bench precondition failed: ${message}`);
}

/**
 * The two request paths cut into their steps and timed in-process (no HTTP), so a gap in the load test
 * can be attributed: key check, project list, and the GraphQL execution around the list.
 */
async function timeBreakdown(
  runtime: DomainRuntime,
  pool: pg.Pool,
  apiKey: string,
  organizationId: string,
  concurrency: number,
): Promise<StageTiming[]> {
  const principal = await runtime.authenticate({ bearer: apiKey }, 'SURFACE_A');
  assert(principal, 'the bench key does not authenticate');
  const route = v1Routes.find((r) => r.method === 'GET' && r.url === '/api/v1/projects');
  assert(route, 'GET /api/v1/projects is not in the v1 route table');
  const compiled = compileQuery(runtime.schema, route.operation as never);
  assert(isCompiledQuery(compiled), 'the V1 list operation does not compile');
  const projects = new ProjectService(runtime.config);
  const stages: Stage[] = [
    { name: 'hand: SHA-256 + pg key lookup', run: () => verifyKey(pool, apiKey) },
    {
      name: 'facade: runtime.authenticate (ApiKeyService.principalFor, native pool)',
      run: () => runtime.authenticate({ bearer: apiKey }, 'SURFACE_A'),
    },
    { name: 'both: Redis rate-limit hit', run: () => runtime.rateLimit(`org:${organizationId}:A`, BENCH_RATE_LIMIT) },
    { name: 'hand: pg project list + shape', run: () => listProjects(pool, organizationId) },
    { name: 'facade: ProjectService.list (native pool, 20 rows)', run: () => projects.list(runtime.orm.em, principal) },
    {
      name: 'facade: graphql-jit V1ListProjects + route map (includes the list)',
      run: async () => {
        const ctx = runtime.createContext({ principal, requestId: 'bench' });
        const result = await compiled.query(undefined, ctx, {});
        return route.map(result.data);
      },
    },
  ];
  const timings: StageTiming[] = [];
  for (const stage of stages) timings.push(await timeStage(stage, 3000, concurrency));
  return timings;
}

export async function runFacadeBench(): Promise<{ ok: boolean }> {
  const settings: LoadSettings = {
    connections: intFromEnv('BENCH_CONNECTIONS', 10),
    // Even, so that each of the pair goes first equally often (see roundOrder).
    rounds: intFromEnv('BENCH_ROUNDS', 6),
    durationSec: intFromEnv('BENCH_DURATION', 5),
    warmupSec: intFromEnv('BENCH_WARMUP', 3),
    pauseMs: 500,
    // The group's seconds of each round as this many slices each (by default 1-second slices), interleaved (see
    // sliceOrder); BENCH_SLICES=1 gives the earlier method, one block each, back to back.
    slices: intFromEnv('BENCH_SLICES', 5),
    slicePauseMs: 100,
  };
  const databaseUrl = benchDatabaseUrl();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `bench-${randomBytes(5).toString('hex')}`,
    LOG_LEVEL: 'silent',
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString('hex'),
  });

  log(`database ${new URL(databaseUrl).pathname.slice(1)}: ensuring and migrating`);
  await prepareBenchDatabase(databaseUrl);

  // Everything opened is closed in reverse order, whether the run succeeds or a step throws.
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const runtime = await createDomainRuntime(config, createLogger({ level: 'silent', name: 'bench' }));
    cleanups.push(() => runtime.close());
    const realRateLimitFor = runtime.rateLimitFor.bind(runtime);
    runtime.rateLimitFor = (principal) => ({ ...realRateLimitFor(principal), limit: BENCH_RATE_LIMIT });

    // node-postgres directly: what a hand-written route would use. Sized and kept warm like the ORM's pool.
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 30_000 });
    cleanups.push(() => pool.end());
    const redis = createRedis(config.REDIS_URL, { name: 'bench-hand-written' });
    cleanups.push(() => redis.quit());
    cleanups.push(() => removeRedisKeys(redis, `${config.REDIS_PREFIX}:*`));
    const handDeps = { pool, limiter: new RateLimiter(redis, config.REDIS_PREFIX), limit: BENCH_RATE_LIMIT };

    const app = await buildServer(runtime);
    cleanups.push(() => app.close());
    // Diagnostic: the same hand-written handler behind the facade app's global hooks (request id, metrics).
    app.get(HAND_IN_APP_PATH, { schema: HAND_WRITTEN_ROUTE_SCHEMA }, handWrittenProjectsHandler(handDeps));
    // Diagnostic: the same handler reading through the platform's node-postgres pool, whose timestamptz parser
    // (new Date) is cheaper than node-postgres' default (postgres-date): what the facade costs beyond that pool.
    const nativePool = nativePoolOf(runtime.orm.config);
    assert(nativePool, 'the ORM has no native pool');
    app.get(
      HAND_NATIVE_PATH,
      { schema: HAND_WRITTEN_ROUTE_SCHEMA },
      handWrittenProjectsHandler({ ...handDeps, pool: nativePool }),
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    const variants = compareFastPaths() ? FAST_PATH_VARIANTS : [];
    const variantApps: FastifyInstance[] = [];
    for (const variant of variants) {
      const view = await runtime.withFastPaths(variant.off);
      view.rateLimitFor = runtime.rateLimitFor;
      const variantApp = await buildServer(view);
      cleanups.push(() => variantApp.close());
      await variantApp.listen({ host: '127.0.0.1', port: 0 });
      variantApps.push(variantApp);
    }
    const hand = await buildHandWrittenServer(handDeps);
    cleanups.push(() => hand.close());
    await hand.listen({ host: '127.0.0.1', port: 0 });
    const load = LoadClient.start();
    cleanups.push(() => load.close());
    const loadBefore = loadavg()[0];

    const t: TestApp = { app, runtime, config, logs: [], queries: [], close: async () => undefined };
    const user = await signUp(t);
    // The bench leaves nothing behind: its organization (projects, keys, members cascade) and user go.
    cleanups.push(() => runtime.pool.query('DELETE FROM "user" WHERE id = $1', [user.userId]));
    cleanups.push(() => runtime.pool.query('DELETE FROM "organization" WHERE id = $1', [user.organizationId]));
    await setPlan(t, user.organizationId, 'ENTERPRISE');
    const apiKey = await createApiKey(t, user, 'bench key');
    for (let i = 0; i < PROJECTS; i++)
      await createProject(t, user, `https://bench-${i}-${randomBytes(3).toString('hex')}.example.com`);
    log(`seeded ENTERPRISE organization ${user.organizationId} with ${PROJECTS} projects and an API key`);

    const bearer = { authorization: `Bearer ${apiKey}` };
    const facadeUrl = origin(app);
    const gqlBody = JSON.stringify({
      query: '{ projects { id name domain createdAt counts { audits keywords competitors } } }',
    });
    const targets: BenchTarget[] = [
      {
        name: 'hand-written',
        label: 'hand-written GET /api/v1/projects (bare Fastify, pg.Pool)',
        url: `${origin(hand)}/api/v1/projects`,
        method: 'GET',
        headers: bearer,
      },
      {
        name: 'facade-v1',
        label: 'facade GET /api/v1/projects (API key)',
        url: `${facadeUrl}/api/v1/projects`,
        method: 'GET',
        headers: bearer,
      },
      {
        name: 'facade-api',
        label: 'facade GET /api/projects (session cookie)',
        url: `${facadeUrl}/api/projects`,
        method: 'GET',
        headers: { cookie: user.cookie },
      },
      {
        name: 'graphql',
        label: 'POST /graphql { projects } (API key)',
        url: `${facadeUrl}/graphql`,
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: gqlBody,
      },
      {
        name: 'hand-in-app',
        label: 'diagnostic: hand-written handler in the facade app',
        url: `${facadeUrl}${HAND_IN_APP_PATH}`,
        method: 'GET',
        headers: bearer,
      },
      {
        name: 'hand-native',
        label: "diagnostic: the same, on the platform's pg pool",
        url: `${facadeUrl}${HAND_NATIVE_PATH}`,
        method: 'GET',
        headers: bearer,
      },
    ];
    variants.forEach((variant, i) => {
      const base = targets.find((tg) => tg.name === variant.of)!;
      const url = `${origin(variantApps[i])}${new URL(base.url).pathname}`;
      targets.push({
        ...base,
        name: variant.name,
        label: `${variant.of} without the ${variant.shortcut} shortcut`,
        url,
      });
    });
    const group = variants.length ? [...GROUP, 'facade-api', ...variants.map((v) => v.name)] : GROUP;

    // Every target must answer 200 with the same 20 projects before any number means anything.
    const responses = await Promise.all(
      targets.map((tg) => fetchJson(tg.url, { method: tg.method, headers: tg.headers, body: tg.body })),
    );
    const [handRes, facadeRes, apiRes, gqlRes, inAppRes, nativeRes] = responses;
    responses.forEach((r, i) =>
      assert(r.status === 200, `${targets[i].name} answered ${r.status}: ${JSON.stringify(r.body)}`),
    );
    assert(handRes.body.projects.length === PROJECTS, `hand-written listed ${handRes.body.projects.length} projects`);
    assert(isDeepStrictEqual(facadeRes.body, handRes.body), 'facade and hand-written bodies differ');
    assert(isDeepStrictEqual(inAppRes.body, handRes.body), 'in-app hand-written body differs');
    assert(isDeepStrictEqual(nativeRes.body, handRes.body), 'hand-written body on the platform pool differs');
    assert(apiRes.body.projects.length === PROJECTS, 'GET /api/projects did not list every project');
    assert(
      !gqlRes.body.errors && gqlRes.body.data.projects.length === PROJECTS,
      `graphql: ${JSON.stringify(gqlRes.body.errors)}`,
    );
    for (const [i, variant] of variants.entries()) {
      const res = responses[targets.findIndex((tg) => tg.name === variant.name)];
      const same = { 'facade-v1': facadeRes, 'facade-api': apiRes, graphql: gqlRes }[variant.of];
      assert(
        res.status === 200 && isDeepStrictEqual(res.body, same.body),
        `${variants[i].name} answers otherwise than ${variant.of}`,
      );
    }
    assert(
      facadeRes.headers.get('ratelimit-limit') === String(BENCH_RATE_LIMIT),
      'facade did not use the bench rate limit',
    );
    assert(
      handRes.headers.get('ratelimit-limit') === String(BENCH_RATE_LIMIT),
      'hand-written did not use the bench rate limit',
    );

    const total = settings.rounds * settings.durationSec * targets.length + settings.warmupSec * targets.length;
    log(
      `${targets.length} targets, ${settings.connections} connections, warm-up ${settings.warmupSec}s ` +
        `each, ${settings.rounds} rounds x ${settings.durationSec}s (~${total}s)`,
    );
    if (settings.rounds % 2) log('odd BENCH_ROUNDS: the group is measured in one order once more than in the other');
    const samples = await runInterleaved(load, targets, settings, log, group);
    const rows = summarize(samples, 'hand-written');
    log('timing the steps of both paths in-process');
    const stages = await timeBreakdown(runtime, pool, apiKey, user.organizationId, settings.connections);
    const facade = rows.find((r) => r.name === 'facade-v1')!;
    const clean = rows.every((r) => r.non2xx === 0 && r.errors === 0);
    const graphql = rows.find((r) => r.name === 'graphql')!;
    const graphqlMeets = graphql.ratio >= GRAPHQL_TARGET_RATIO;
    const meets = facade.ratio >= TARGET_RATIO && graphqlMeets;
    // The facade against the same hand-written code on the platform's pool: what the REST -> GraphQL path costs.
    const native = rows.find((r) => r.name === 'hand-native')!;
    const beyondPool = facade.rps / native.rps;

    const loadAfter = loadavg()[0];
    const out: string[] = [
      '',
      `facade benchmark: ${PROJECTS} projects, ENTERPRISE org, ${settings.connections} ` +
        `connections, ${settings.rounds} rounds x ${settings.durationSec}s interleaved ` +
        `after ${settings.warmupSec}s warm-up each`,
      `each round measures ${group.join(', ')} as ${settings.slices} slice(s) ` +
        `of ${(settings.durationSec / settings.slices).toFixed(1)}s each, interleaved A B C C B A A B C ... ` +
        `(mirrored every other round), then the other targets in rotation, ${settings.durationSec}s each`,
      `node ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}, LOG_LEVEL=silent; servers ` +
        `in this process, autocannon in a child process`,
      `machine: ${cpus().length} CPUs, 1-min load average ${loadBefore.toFixed(2)} ` +
        `before, ${loadAfter.toFixed(2)} after (other work on the box widens the per-round spread)`,
      `hand-written SQL via node-postgres pg.Pool (max 10, same as the ORM pool), plain parameterized ` +
        `queries; the 200 body serialized from the same response schema as the facade route's ` +
        `(fast-json-stringify)`,
      `rate limit: both sides run the real RateLimiter Lua on the real org:<id>:A bucket ` +
        `(prefix ${config.REDIS_PREFIX}); runtime.rateLimitFor is wrapped to compare ` +
        `against ${BENCH_RATE_LIMIT} instead of RATE_LIMITS.A.ENTERPRISE (120/min)`,
      '',
      formatTable(rows),
      '',
      `facade / hand-written for GET /api/v1/projects: ${facade.ratio.toFixed(3)} (median of per-round ` +
        `ratios ${facade.ratioMedian.toFixed(3)}; target ` +
        `>= ${TARGET_RATIO}): ${facade.ratio >= TARGET_RATIO ? 'MEETS TARGET' : 'BELOW TARGET'}`,
      `POST /graphql { projects } / hand-written: ${graphql.ratio.toFixed(3)} (median of per-round ratios ` +
        `${graphql.ratioMedian.toFixed(3)}; target >= ${GRAPHQL_TARGET_RATIO}): ` +
        `${graphqlMeets ? 'MEETS TARGET' : 'BELOW TARGET'}`,
      `facade / the hand-written handler on the platform's pg pool (no target; the pool parses timestamps ` +
        `more cheaply than node-postgres' default): ${beyondPool.toFixed(3)}`,
      '',
      `steps in-process, ${settings.connections} in flight (CPU is what the API process pays per request):`,
      formatStages(stages),
    ];
    const gains = variants.map((variant) => fastPathGain(samples, variant));
    if (gains.length) {
      out.push(
        '',
        'what each shortcut of src/platform/fast-path/ buys end to end: req/s with it / without it - 1, ' +
          'paired per round, and',
        "the API process's CPU time per response without it / with it - 1 (CPU is less swayed by other work " +
          'on the machine):',
      );
      for (const g of gains) {
        out.push(
          `  ${g.shortcut.padEnd(18)} on ${g.endpoint.padEnd(10)} req/s median ${pct(g.gainMedian)} (per ` +
            `round ${g.perRound.map(pct).join(' ')})`,
        );
        out.push(
          `  ${''.padEnd(32)} CPU/response median ${pct(g.cpuGainMedian)}, ${g.cpuUsOn.toFixed(0)} ` +
            `vs ${g.cpuUsOff.toFixed(0)} µs (per round ${g.cpuPerRound.map(pct).join(' ')})`,
        );
      }
    }
    if (!clean) out.push('WARNING: some responses were not 2xx or failed; the numbers above are not comparable.');
    process.stdout.write(`${out.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'facade',
        projects: PROJECTS,
        settings,
        baseline: 'hand-written',
        targetRatio: TARGET_RATIO,
        graphqlTargetRatio: GRAPHQL_TARGET_RATIO,
        facadeRatio: Number(facade.ratio.toFixed(4)),
        graphqlRatio: Number(graphql.ratio.toFixed(4)),
        facadeRatioMedian: Number(facade.ratioMedian.toFixed(4)),
        facadeVsHandOnPlatformPool: Number(beyondPool.toFixed(4)),
        loadAverage: {
          before: Number(loadBefore.toFixed(2)),
          after: Number(loadAfter.toFixed(2)),
          cpus: cpus().length,
        },
        meetsTarget: meets,
        clean,
        results: rows.map((r) => ({
          name: r.name,
          rps: Math.round(r.rps),
          rpsMin: Math.round(r.rpsMin),
          rpsMax: Math.round(r.rpsMax),
          p50Ms: Number(r.p50Ms.toFixed(3)),
          p99Ms: Number(r.p99Ms.toFixed(3)),
          ratio: Number(r.ratio.toFixed(4)),
          ratioPerRound: r.ratioPerRound.map((x) => Number(x.toFixed(4))),
          ratioMedian: Number(r.ratioMedian.toFixed(4)),
          responses: r.responses,
          non2xx: r.non2xx,
          errors: r.errors,
        })),
        fastPaths: gains.map((g) => ({
          ...g,
          gainMedian: Number(g.gainMedian.toFixed(4)),
          perRound: g.perRound.map((x) => Number(x.toFixed(4))),
          cpuGainMedian: Number(g.cpuGainMedian.toFixed(4)),
          cpuPerRound: g.cpuPerRound.map((x) => Number(x.toFixed(4))),
          cpuUsOn: Math.round(g.cpuUsOn),
          cpuUsOff: Math.round(g.cpuUsOff),
        })),
        stages: stages.map((st) => ({ name: st.name, cpuUs: Math.round(st.cpuUs), wallUs: Math.round(st.wallUs) })),
      })}\n`,
    );
    return { ok: clean };
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err: unknown) => log(`cleanup failed: ${String(err)}`));
  }
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The shortcut's gain, per round: its endpoint's req/s with every shortcut on over the same without it, and the
 * CPU time per response without it over with it.
 */
function fastPathGain(samples: Map<string, TargetSamples>, variant: FastPathVariant) {
  const on = samples.get(variant.of)!.rounds;
  const off = samples.get(variant.name)!.rounds;
  const perRound = on.map((r, i) => r.rps / off[i].rps - 1);
  const cpuPerRound = on.map((r, i) => off[i].cpuUsPerResponse / r.cpuUsPerResponse - 1);
  return {
    shortcut: variant.shortcut,
    endpoint: variant.of,
    variant: variant.name,
    gainMedian: median(perRound),
    perRound,
    cpuGainMedian: median(cpuPerRound),
    cpuPerRound,
    cpuUsOn: median(on.map((r) => r.cpuUsPerResponse)),
    cpuUsOff: median(off.map((r) => r.cpuUsPerResponse)),
  };
}
