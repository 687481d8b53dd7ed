import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Every parse in this (the calling) thread goes through this spy: the pool must never parse a page here. The pool's
// threads load their own copy of the module, which is not mocked.
const inlineParses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/seo/page/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/seo/page/index.js')>();
  return {
    ...actual,
    extractPageFacts: (...args: Parameters<typeof actual.extractPageFacts>) => {
      inlineParses.count++;
      return actual.extractPageFacts(...args);
    },
  };
});

const { PageAnalysisError, createPageFactsPool } = await import('../../../src/crawler/index.js');
const { MAX_ELEMENT_DEPTH } = await import('../../../src/seo/page/index.js');
type ExtractorSpec = import('../../../src/seo/extraction/index.js').ExtractorSpec;
type PageContext = import('../../../src/seo/page/index.js').PageContext;

const origin = 'http://hostile.test';
const css = (expression: string): ExtractorSpec => ({
  key: 'all',
  kind: 'CSS',
  expression,
  output: 'TEXT',
  attribute: null,
  match: 'ALL',
  regex: false,
  ignoreCase: false,
});
const normal = (n: number) =>
  Buffer.from(`<html><head><title>Normal ${n}</title></head><body><h1>Hi</h1><a href="/n${n + 1}">next</a></body>`);
/** The largest page the crawler analyses (5 MiB) made of the smallest elements. */
const tinyElements = () => Buffer.from(`<html><body>${'<i></i>'.repeat(Math.floor((5 * 1024 * 1024) / 7))}</body>`);
const deep = (depth: number) =>
  Buffer.from(`<html><body>${'<div>'.repeat(depth)}<a href="/in">in</a>${'</div>'.repeat(depth)}<a href="/out">o</a>`);
const ctx = (path: string, specs?: ExtractorSpec[]): PageContext => ({
  url: `${origin}${path}`,
  status: 200,
  ...(specs && { extraction: { specs, budgetMs: 250 } }),
});

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
afterAll(() => {
  delay.disable();
  // A figure for the reader, not an assertion: the structural check is inlineParses.
  console.info(`event loop: max delay ${(delay.max / 1e6).toFixed(0)} ms over the file`);
});

/** The fields of /proc/<pid>/task/<tid>/stat from the 3rd on (after the command's parentheses). */
function statFields(tid: number, pid: number | 'self' = 'self'): string[] {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A thread's nice value: the 19th field of its stat. */
const niceOf = (tid: number, pid: number | 'self' = 'self') => Number(statFields(tid, pid)[16]);

describe('page analysis: one audit cannot fail or hold up another', () => {
  it('a page that runs its thread out of memory fails alone; the other audit gets its facts', async () => {
    const failures: { url: string; lane: string; reason: string }[] = [];
    // A 5 MiB page of tiny elements with a CSS extractor needs 128-192 MB (PAGE_ANALYSIS_LIMITS); 64 MB is too few.
    const pool = createPageFactsPool(2, { perLane: 1, maxHeapMb: 64, onFailed: (f) => failures.push(f) });
    try {
      const hostile = pool.extract(tinyElements(), ctx('/huge', [css('*')]), 'attacker');
      const victims = Array.from({ length: 20 }, (_, n) => pool.extract(normal(n), ctx(`/n${n}`), 'victim'));
      const behind = pool.extract(normal(99), ctx('/after'), 'attacker');
      await expect(hostile).rejects.toThrow(PageAnalysisError);
      await expect(hostile).rejects.toThrow(/^Page too complex to analyse: its analysis needed more than 64 MB/);
      const facts = await Promise.all(victims);
      facts.forEach((f, n) => expect(f.titles).toEqual([`Normal ${n}`]));
      // The attacker's next page, queued behind the one that killed the thread, is analysed by a new thread.
      expect((await behind).titles).toEqual(['Normal 99']);
      expect(failures).toEqual([{ url: `${origin}/huge`, lane: 'attacker', reason: expect.any(String) }]);
    } finally {
      await pool.close();
    }
  });

  it('a page over its time budget is stopped and fails alone; the other lane is served meanwhile', async () => {
    // 5 MiB of tiny elements without extractors takes ~0.7 s to parse: over a 100 ms budget.
    const pool = createPageFactsPool(2, { perLane: 1, pageBudgetMs: 100 });
    try {
      const hostile = pool.extract(tinyElements(), ctx('/slow'), 'attacker').catch((err: unknown) => err);
      const victim = await Promise.all(
        Array.from({ length: 10 }, (_, n) => pool.extract(normal(n), ctx(`/v${n}`), 'victim')),
      );
      victim.forEach((f, n) => expect(f.titles).toEqual([`Normal ${n}`]));
      const failure = await hostile;
      expect(failure).toBeInstanceOf(PageAnalysisError);
      expect((failure as Error).message).toBe('Page too complex to analyse: its analysis took longer than 100 ms');
      expect((await pool.extract(normal(1), ctx('/again'), 'attacker')).titles).toEqual(['Normal 1']);
    } finally {
      await pool.close();
    }
  });

  it('a long page gives way: its thread drops to nice 19, and its audit’s next pages start there', async () => {
    const yielded: { url: string; lane: string; tid: number }[] = [];
    const posted: { url: string; lane: string; tid: number | null; low: boolean }[] = [];
    let niceWhileRunning: number | null = null;
    const pool = createPageFactsPool(2, {
      perLane: 1,
      yieldAfterMs: 20,
      lowPriorityForMs: 60_000,
      onYielded: (y) => {
        yielded.push(y);
        niceWhileRunning = niceOf(y.tid);
      },
      onPosted: (p) => posted.push(p),
    });
    try {
      // 5 MiB of tiny elements without extractors takes ~0.7 s: past 20 ms, within the 10 s budget.
      const facts = await pool.extract(tinyElements(), ctx('/long'), 'attacker');
      expect(facts.titles).toEqual([]);
      expect(yielded).toEqual([{ url: `${origin}/long`, lane: 'attacker', tid: expect.any(Number) }]);
      expect(niceWhileRunning).toBe(19);
      // The audit's next page goes to that thread, still at the lowest priority (kept, not started again); another
      // audit's page goes to a thread at the process's priority.
      expect((await pool.extract(normal(1), ctx('/next'), 'attacker')).titles).toEqual(['Normal 1']);
      expect((await pool.extract(normal(2), ctx('/v'), 'victim')).titles).toEqual(['Normal 2']);
      const [, next, victim] = posted;
      expect(next).toEqual({ url: `${origin}/next`, lane: 'attacker', tid: yielded[0].tid, low: true });
      expect(niceOf(yielded[0].tid)).toBe(19);
      expect(victim).toMatchObject({ lane: 'victim', low: false });
      expect(victim.tid).not.toBe(yielded[0].tid);
      expect(niceOf(victim.tid!)).toBe(0);
      expect(yielded).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('a lane is low for lowPriorityForMs; a full pool trades an idle thread for the kind pages need', async () => {
    const posted: { lane: string; tid: number | null; low: boolean }[] = [];
    const pool = createPageFactsPool(1, {
      yieldAfterMs: 20,
      lowPriorityForMs: 300,
      onPosted: (p) => posted.push(p),
    });
    try {
      await pool.extract(tinyElements(), ctx('/long'), 'a');
      // One thread in all: the low one serves the lane while it is low…
      await pool.extract(normal(1), ctx('/1'), 'a');
      expect(posted[1]).toMatchObject({ lane: 'a', low: true, tid: posted[0].tid });
      // …and another lane's page gets a thread at the process's priority in its place.
      await pool.extract(normal(2), ctx('/2'), 'b');
      expect(posted[2]).toMatchObject({ lane: 'b', low: false });
      expect(niceOf(posted[2].tid!)).toBe(0);
      await new Promise((r) => setTimeout(r, 350));
      await pool.extract(normal(3), ctx('/3'), 'a');
      expect(posted[3]).toMatchObject({ lane: 'a', low: false, tid: posted[2].tid });
    } finally {
      await pool.close();
    }
  });

  it('deep nesting is flattened at the cap, as a browser does, and analysed in full', async () => {
    const pool = createPageFactsPool(1);
    try {
      const href: ExtractorSpec = { ...css('div a'), output: 'ATTRIBUTE', attribute: 'href' };
      const facts = await pool.extract(deep(100_000), ctx('/deep', [href]), 'a');
      // <html> and <body> hold two of the 512 levels: every div past the 510th is flattened, and the link in them.
      expect(facts.nestingFlattened).toBe(100_000 - (MAX_ELEMENT_DEPTH - 2) + 1);
      // Both links: the one inside the deepest div, and the one after all of them are closed.
      expect(facts.links.map((l) => l.url)).toEqual([`${origin}/in`, `${origin}/out`]);
      // The flattened link is in the tree (empty: its text follows it, as its sibling).
      expect(facts.extraction?.all).toEqual(['/in']);
    } finally {
      await pool.close();
    }
  });

  it('lanes are served in turn: a lane with many pages waiting does not starve one that comes later', async () => {
    const order: string[] = [];
    const pool = createPageFactsPool(1);
    try {
      await pool.extract(normal(0), ctx('/warm'), 'a');
      const many = Array.from({ length: 30 }, (_, n) =>
        pool.extract(normal(n), ctx(`/a${n}`), 'a').then(() => order.push(`a${n}`)),
      );
      const late = pool.extract(normal(1), ctx('/b'), 'b').then(() => order.push('b'));
      await Promise.all([...many, late]);
      // One page of lane a may be in the thread, and the next turn is b's.
      expect(order.indexOf('b')).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  });

  it('a thread that crashes on one page fails that page only; pages of other audits are analysed', async () => {
    // The real thread program, behind a listener that kills the thread on a page that says BOOM.
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('../../../src/crawler/page-facts.thread.ts', import.meta.url).href;
    const script = `const { parentPort } = require('node:worker_threads');
      parentPort.on('message', (m) => { if (Buffer.from(m.body).includes('BOOM')) process.exit(9); });
      import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
    const pool = createPageFactsPool(1, { thread: { script, eval: true } });
    try {
      const boom = pool.extract(Buffer.from('<title>BOOM</title>'), ctx('/boom'), 'attacker');
      const others = Array.from({ length: 5 }, (_, n) => pool.extract(normal(n), ctx(`/o${n}`), `victim${n % 2}`));
      await expect(boom).rejects.toThrow(/^Page too complex to analyse: its analysis thread stopped \(exit code 9\)/);
      (await Promise.all(others)).forEach((f, n) => expect(f.titles).toEqual([`Normal ${n}`]));
    } finally {
      await pool.close();
    }
  });

  it('a page stopped in its extractors is analysed again in a thread, not here', { timeout: 20_000 }, async () => {
    // `a.*b.*NOPE` passes the save-time check but is cubic in the a's and b's of the page: minutes in one piece.
    const slow: ExtractorSpec = { ...css('a.*b.*NOPE'), key: 'slow', kind: 'REGEX' };
    const page = Buffer.from(`<html><head><title>Slow</title></head><body><p>${'ab '.repeat(2_400)}</p>`);
    const pool = createPageFactsPool(2, { perLane: 1, stopMarginMs: 100 });
    try {
      const stopped = pool.extract(page, { ...ctx('/regex'), extraction: { specs: [slow], budgetMs: 100 } }, 'x');
      const victim = pool.extract(normal(7), ctx('/v'), 'victim');
      expect((await victim).titles).toEqual(['Normal 7']);
      const facts = await stopped;
      expect(facts.titles).toEqual(['Slow']);
      expect(facts.extraction).toEqual({ slow: 'timeout' });
    } finally {
      await pool.close();
    }
  });

  it('no page was parsed in the calling thread, whatever happened to its thread', () => {
    expect(inlineParses.count).toBe(0);
  });

  it('with the low-priority process: a long page is handed to a process whose every thread is at nice 19', async () => {
    const posted: { url: string; lane: string; tid: number | null; low: boolean; pid?: number | null }[] = [];
    // 64 MB: the process's threads get the pool's heap, too few for the 5 MiB page with a tree extractor.
    const pool = createPageFactsPool(2, {
      perLane: 1,
      yieldAfterMs: 20,
      maxHeapMb: 64,
      lowPriorityProcess: true,
      onPosted: (p) => posted.push(p),
    });
    try {
      // The long page starts in a thread here, gives way, and is analysed again in the process, in full.
      const facts = await pool.extract(tinyElements(), ctx('/long'), 'attacker');
      expect(facts.titles).toEqual([]);
      expect(posted.map((p) => [p.url, p.low, p.pid !== undefined])).toEqual([
        [`${origin}/long`, false, false],
        [`${origin}/long`, true, true],
      ]);
      const pid = posted[1].pid!;
      // Every thread of that process, V8's helpers included, is at the lowest priority.
      const tasks = readdirSync(`/proc/${pid}/task`);
      expect(tasks.length).toBeGreaterThan(3);
      expect(new Set(tasks.map((t) => niceOf(Number(t), pid)))).toEqual(new Set([19]));
      // And, where util-linux's chrt is, under SCHED_IDLE (policy 5: the 41st field of stat).
      const policies = tasks.map((t) => statFields(Number(t), pid)[38]);
      expect(new Set(policies)).toEqual(new Set([existsSync('/usr/bin/chrt') ? '5' : '0']));
      // The audit's next page goes there too; another audit's to a thread here, at the process's priority.
      expect((await pool.extract(normal(1), ctx('/next'), 'attacker')).titles).toEqual(['Normal 1']);
      expect((await pool.extract(normal(2), ctx('/v'), 'victim')).titles).toEqual(['Normal 2']);
      expect(posted[2]).toMatchObject({ url: `${origin}/next`, low: true, pid });
      expect(posted[3]).toMatchObject({ lane: 'victim', low: false });
      expect(niceOf(posted[3].tid!)).toBe(0);
      // A page too complex for the process fails alone there, with the words a thread's failure has.
      const failure = await pool.extract(tinyElements(), ctx('/huge', [css('*')]), 'attacker').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(PageAnalysisError);
      expect((failure as Error).message).toBe(
        'Page too complex to analyse: its analysis needed more than 64 MB of memory',
      );
    } finally {
      await pool.close();
    }
    // Closed with the pool.
    await vi.waitFor(() => expect(existsSync(`/proc/${posted[1].pid}`)).toBe(false));
  });
});
