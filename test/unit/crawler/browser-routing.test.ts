import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRendererLeases, type PageRenderer } from '../../../src/crawler/browser/index.js';
import { settleRender } from '../../../src/crawler/browser/page-renderer.js';
import { RenderJob } from '../../../src/crawler/browser/render-job.js';
import { browserHeaders } from '../../../src/crawler/browser/render-routing.js';

describe('browserHeaders', () => {
  it('drops what describes the wire (the body handed over is decoded) and joins repeated headers', () => {
    expect(
      browserHeaders({
        'Content-Type': 'text/html; charset=iso-8859-1',
        'content-encoding': 'gzip',
        'content-length': '120',
        'transfer-encoding': 'chunked',
        connection: 'keep-alive',
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
        link: ['</a.css>; rel=preload', '</b.js>; rel=preload'],
        'content-security-policy': "script-src 'self'",
      }),
    ).toEqual({
      'content-type': 'text/html; charset=iso-8859-1',
      'set-cookie': 'a=1; Path=/\nb=2; Path=/',
      link: '</a.css>; rel=preload, </b.js>; rel=preload',
      'content-security-policy': "script-src 'self'",
    });
  });
});

describe('RenderJob', () => {
  it('keeps the first 10 console errors and failures, clipped, with their counts', () => {
    const job = new RenderJob('http://site.test/', 1_000);
    for (let i = 0; i < 12; i++) job.consoleError(`error ${i} ${'x'.repeat(400)}`);
    for (let i = 0; i < 11; i++) job.failed(`http://site.test/${i}`, 'HTTP 404');
    const out = job.output('<html></html>', false);
    expect(out.consoleErrorCount).toBe(12);
    expect(out.consoleErrors).toHaveLength(10);
    expect(out.consoleErrors[0]).toHaveLength(300);
    expect(out.failedRequestCount).toBe(11);
    expect(out.failedRequests).toHaveLength(10);
  });

  it('reports a pending request once, whether the budget or its own failure comes first', () => {
    const job = new RenderJob('http://site.test/', 1_000);
    const a = job.begin('http://site.test/a.js');
    const b = job.begin('http://site.test/b.js');
    expect(job.inflightCount).toBe(2);
    a.fail('TIMEOUT: late');
    job.failPending('still loading when the render budget ran out');
    b.fail('TIMEOUT: late');
    a.end();
    b.end();
    expect(job.inflightCount).toBe(0);
    expect(job.output('', true).failedRequests).toEqual([
      { url: 'http://site.test/a.js', reason: 'TIMEOUT: late' },
      { url: 'http://site.test/b.js', reason: 'still loading when the render budget ran out' },
    ]);
  });

  it('records nothing once the render has ended', () => {
    const job = new RenderJob('http://site.test/', 1_000);
    job.stop.abort();
    job.consoleError('late');
    job.failed('http://site.test/x', 'late');
    job.blockedByRobots('http://site.test/private/x');
    const out = job.output('', false);
    expect([out.consoleErrorCount, out.failedRequestCount, out.blockedByRobots]).toEqual([0, 0, []]);
  });
});

describe('createRendererLeases', () => {
  const fakeRenderer = () => {
    const state = { closed: 0 };
    const renderer: PageRenderer = {
      render: () => Promise.reject(new Error('not used')),
      close: async () => void state.closed++,
    };
    return { renderer, state };
  };

  it('shares one renderer between holders and closes it when the last one releases', async () => {
    const made: ReturnType<typeof fakeRenderer>[] = [];
    const leases = createRendererLeases(() => {
      made.push(fakeRenderer());
      return made.at(-1)!.renderer;
    });
    const a = leases.acquire();
    const b = leases.acquire();
    expect(a.renderer).toBe(b.renderer);
    await a.release();
    await a.release();
    expect(made[0].state.closed).toBe(0);
    await b.release();
    expect(made[0].state.closed).toBe(1);
    // The next holder gets a new renderer.
    const c = leases.acquire();
    expect(made).toHaveLength(2);
    expect(c.renderer).toBe(made[1].renderer);
    await c.release();
    expect(made[1].state.closed).toBe(1);
  });
});

describe('html mode loads no browser code', () => {
  it('outside src/crawler/browser, the renderer is reached by type imports and a dynamic import() only', () => {
    const root = join(import.meta.dirname, '../../../src');
    const offenders: string[] = [];
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name);
      if (!entry.isFile() || !file.endsWith('.ts') || file.includes('/crawler/browser/')) continue;
      const source = readFileSync(file, 'utf8');
      // Every static import/export statement naming the browser folder must be type-only.
      const statements = source.match(/^(import|export)\b[^;]*?from '[^']*\/browser\/[^']*';/gms) ?? [];
      for (const statement of statements)
        if (!/^(import|export) type\b/.test(statement)) offenders.push(`${file}: ${statement.split('\n')[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('settleRender', () => {
  type FakePage = Parameters<typeof settleRender>[0];
  const state = (over: Partial<{ pending: number; timers: number; frames: number; idle: boolean }> = {}) => ({
    pending: 0,
    timers: 0,
    frames: 0,
    idle: true,
    ...over,
  });
  /** A job whose last request ended `ms` ago. */
  const quietJob = (ms: number, budgetMs = 10_000) => {
    const job = new RenderJob('http://site.test/', budgetMs);
    job.lastActivity = Date.now() - ms;
    return job;
  };

  it('nothing pending and an idle main thread: done after the short quiet, not a whole window', async () => {
    const job = quietJob(0);
    let asked = 0;
    const page = { evaluate: async () => (asked++, state()) } as unknown as FakePage;
    expect(await settleRender(page, job, 1_000)).toBe('idle');
    expect(asked).toBe(1);
  });

  for (const [what, busy] of [
    ['a short timer due', { timers: 1 }],
    ['an animation frame asked for', { frames: 1 }],
  ] as const) {
    it(`${what}: the whole quiet window, as for a page that reports nothing`, async () => {
      const job = quietJob(0);
      const page = { evaluate: async () => state(busy) } as unknown as FakePage;
      const started = Date.now();
      expect(await settleRender(page, job, 300)).toBe('quiet');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    });
  }

  it('a main thread that stays busy (a scheduler in chunks): held up to five windows, then quiet', async () => {
    const job = quietJob(0);
    const page = { evaluate: async () => state({ idle: false }) } as unknown as FakePage;
    const started = Date.now();
    expect(await settleRender(page, job, 100)).toBe('quiet');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('a main thread busy for a while, then idle: quiet once it is idle', async () => {
    const job = quietJob(0);
    let asked = 0;
    const page = { evaluate: async () => state({ idle: ++asked > 3, timers: 1 }) } as unknown as FakePage;
    expect(await settleRender(page, job, 100)).toBe('quiet');
    expect(asked).toBeGreaterThan(3);
  });

  it('a page that cannot answer is held the whole window (the old rule)', async () => {
    const job = quietJob(0);
    const page = { evaluate: async () => Promise.reject(new Error('no __seoRenderState')) } as unknown as FakePage;
    const started = Date.now();
    expect(await settleRender(page, job, 300)).toBe('quiet');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('a request that reaches the routing while the page is asked is not missed', async () => {
    const job = quietJob(100);
    let asked = 0;
    let request: { end(): void } | null = null;
    let endedAt = Infinity;
    const page = {
      evaluate: async () => {
        asked++;
        // On the first question a request the page had not counted begins; it is answered 100 ms later.
        if (asked === 1) {
          request = job.begin('http://site.test/chunk.js');
          setTimeout(() => {
            endedAt = Date.now();
            request!.end();
          }, 100);
        }
        return state();
      },
    } as unknown as FakePage;
    expect(await settleRender(page, job, 1_000)).toBe('idle');
    expect(asked).toBe(2);
    // Done only after the request ended and a fresh short quiet (50 ms; timers may fire 1 ms early on Date.now()).
    expect(Date.now() - endedAt).toBeGreaterThanOrEqual(50 - 1);
  });

  it('waits while the page still counts calls the routing has not seen, then a whole quiet window', async () => {
    const job = quietJob(1_000);
    let asked = 0;
    let stillPendingUntil = 0;
    // The page reports one call on its way for its first three answers, as a busy machine's late routing would, and
    // a timer due after that: the whole window applies.
    const page = {
      evaluate: async () => {
        asked++;
        if (asked <= 3) return state({ pending: 1 });
        stillPendingUntil ||= Date.now();
        return state({ timers: 1 });
      },
    } as unknown as FakePage;
    const started = Date.now();
    expect(await settleRender(page, job, 200)).toBe('quiet');
    // Settled once the count was 0, after a fresh quiet window from the last time the page still counted one.
    expect(stillPendingUntil - started).toBeGreaterThanOrEqual(2 * 50);
    expect(Date.now() - stillPendingUntil).toBeGreaterThanOrEqual(200 - 50);
  });

  it('gives up when the budget ends while the page still counts a call', async () => {
    const job = quietJob(1_000, 300);
    const page = { evaluate: async () => state({ pending: 1 }) } as unknown as FakePage;
    expect(await settleRender(page, job, 100)).toBe(false);
  });
});
