/**
 * Rate limits across API processes: one organization on the PRO plan (Surface A 60/min, Surface B 60/min, docs/api.md),
 * N concurrent requests on one credential split evenly over two API processes of one platform → exactly the plan's
 * limit admitted, every other request 429 with Retry-After and the RateLimit-* headers; for both surfaces. Runs on
 * the machine's PostgreSQL and Redis (a fresh database and key prefix; nothing is broken).
 */
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
import { fetchDoor, signUp } from '../support/actors.js';

const PLAN = 'PRO';
const LIMITS = { A: 60, B: 60 } as const;
const WINDOW_MS = 60_000;

interface Outcome {
  status: number;
  api: number;
  retryAfter: string | null;
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  code?: string;
}

/** Waits until the fixed one-minute window has at least `needMs` left, so a burst is counted in one window. */
async function roomInWindow(needMs: number, log: (l: string) => void): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left >= needMs) return;
  log(`waiting ${Math.ceil(left / 1000) + 1} s for a fresh rate-limit window`);
  await new Promise((r) => setTimeout(r, left + 1_000));
}

async function burst(urls: string[], n: number, headers: Record<string, string>): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const api = i % urls.length;
      const res = await fetch(urls[api], { headers });
      const body = (await res.json().catch(() => ({}))) as { code?: string };
      return {
        status: res.status,
        api,
        retryAfter: res.headers.get('retry-after'),
        limit: res.headers.get('ratelimit-limit'),
        remaining: res.headers.get('ratelimit-remaining'),
        reset: res.headers.get('ratelimit-reset'),
        code: body.code,
      };
    }),
  );
}

export const drill: Drill = {
  description: 'N concurrent requests on one key across 2 API processes: exactly the plan limit admitted, the rest 429',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const n = quick ? 150 : 300;
    const platform = await startPlatform({ apis: 2, env: { LOG_LEVEL: 'warn' } });
    const figures: Record<string, unknown> = { plan: PLAN, requestsPerSurface: n, apiProcesses: platform.apis.length };
    try {
      const [a0] = platform.apis;
      const email = `drill-${Date.now()}@example.test`;
      const { cookie, organizationId } = await signUp(fetchDoor(a0.baseUrl, { rows: platform.sql }), {
        email,
        name: 'Drill',
      });
      await platform.cli(['org', 'set-plan', organizationId, PLAN]);
      const { key } = await platform.cli<{ key: string }>([
        'api-key',
        'create',
        '--org',
        organizationId,
        '--name',
        'rate-limit drill',
      ]);

      const surfaces: { name: string; path: string; headers: Record<string, string>; limit: number }[] = [
        { name: 'A', path: '/api/v1/projects', headers: { authorization: `Bearer ${key}` }, limit: LIMITS.A },
        { name: 'B', path: '/api/projects', headers: { cookie }, limit: LIMITS.B },
      ];
      for (const s of surfaces) {
        await roomInWindow(15_000, log);
        const started = Date.now();
        const outcomes = await burst(
          platform.apis.map((a) => `${a.baseUrl}${s.path}`),
          n,
          s.headers,
        );
        const ms = Date.now() - started;
        const admitted = outcomes.filter((o) => o.status === 200);
        const refused = outcomes.filter((o) => o.status === 429);
        const other = outcomes.filter((o) => o.status !== 200 && o.status !== 429);
        const badRefusals = refused.filter(
          (o) =>
            !(
              Number(o.retryAfter) > 0 &&
              o.limit === String(s.limit) &&
              o.remaining === '0' &&
              Number(o.reset) > 0 &&
              o.code === 'RATE_LIMITED'
            ),
        );
        const badAdmitted = admitted.filter(
          (o) => !(o.limit === String(s.limit) && o.remaining !== null && Number(o.reset) > 0),
        );
        const perApi = platform.apis.map((_, i) => ({
          admitted: admitted.filter((o) => o.api === i).length,
          refused: refused.filter((o) => o.api === i).length,
        }));
        figures[`surface${s.name}`] = {
          limit: s.limit,
          sent: n,
          admitted: admitted.length,
          refused429: refused.length,
          other: other.length,
          perApi,
          refusalsWithoutHeaders: badRefusals.length,
          admittedWithoutHeaders: badAdmitted.length,
          burstMs: ms,
        };
        log(
          `surface ${s.name}: ${admitted.length} admitted, ${refused.length} × 429, ${other.length} other ` +
            `in ${ms} ms (per process ${JSON.stringify(perApi)})`,
        );
        expect(admitted.length === s.limit, `surface ${s.name}: exactly ${s.limit} admitted (got ${admitted.length})`);
        expect(
          refused.length === n - s.limit,
          `surface ${s.name}: ${n - s.limit} refused with 429 (got ${refused.length})`,
        );
        expect(other.length === 0, `surface ${s.name}: no other status (got ${other.map((o) => o.status).join(', ')})`);
        expect(
          badRefusals.length === 0,
          `surface ${s.name}: every 429 has Retry-After, RateLimit-Limit/Remaining/Reset and code ` +
            `RATE_LIMITED (${badRefusals.length} did not)`,
        );
        expect(
          badAdmitted.length === 0,
          `surface ${s.name}: every admitted response has the RateLimit-* headers (${badAdmitted.length} did not)`,
        );
        expect(
          perApi.every((p) => p.admitted + p.refused > 0),
          `surface ${s.name}: both API processes served part of the burst`,
        );
      }
      const crashed = platform.apis.filter((a) => !a.alive()).length;
      expect(crashed === 0, `every API process is still up (${crashed} exited)`);
    } finally {
      await platform.stop();
    }
    return result(figures);
  },
};
