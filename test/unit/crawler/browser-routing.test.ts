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
  it('waits while the page still counts calls the routing has not seen, then a whole quiet window', async () => {
    const job = new RenderJob('http://site.test/', 10_000);
    job.lastActivity = Date.now() - 1_000;
    let asked = 0;
    let stillPendingUntil = 0;
    // The page reports one call on its way for its first three answers, as a busy machine's late routing would.
    const page = {
      evaluate: async () => {
        asked++;
        if (asked <= 3) return 1;
        stillPendingUntil ||= Date.now();
        return 0;
      },
    } as unknown as Parameters<typeof settleRender>[0];
    const started = Date.now();
    expect(await settleRender(page, job, 200)).toBe(true);
    expect(asked).toBe(4);
    // Settled once the count was 0, after a fresh quiet window from the last time the page still counted one.
    expect(stillPendingUntil - started).toBeGreaterThanOrEqual(2 * 100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('gives up when the budget ends while the page still counts a call', async () => {
    const job = new RenderJob('http://site.test/', 300);
    job.lastActivity = Date.now() - 1_000;
    const page = { evaluate: async () => 1 } as unknown as Parameters<typeof settleRender>[0];
    expect(await settleRender(page, job, 100)).toBe(false);
  });
});
