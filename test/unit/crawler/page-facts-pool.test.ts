import { afterAll, describe, expect, it } from 'vitest';
import { createPageFactsPool } from '../../../src/crawler/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';
import { failingSite } from '../../fixtures/sites/failing-site.js';

const origin = 'http://fail.test:8080';
// Every page of the failing fixture site: one defect per page, so the facts cover every extractor branch.
const pages = Object.entries(
  failingSite({
    origin,
    external: 'https://ext.test:8443',
    loopbackIp: 'http://127.0.0.1:9',
    otherHost: 'other.test',
    closed: 'http://127.0.0.1:9',
  }),
)
  .filter(([, r]) => typeof r.body === 'string' && /<html/i.test(r.body))
  .map(([path, r]) => ({
    url: `${origin}${path}`,
    html: r.body as string,
    headers: (r.headers ?? {}) as Record<string, string>,
  }));

const pool = createPageFactsPool(2);
afterAll(() => pool.close());

describe('page-facts thread pool', () => {
  it('gives exactly the facts of in-thread parsing for every page of the failing fixture site', async () => {
    expect(pages.length).toBeGreaterThan(40);
    const results = await Promise.all(
      pages.map((p) => pool.extract(Buffer.from(p.html), { url: p.url, headers: p.headers, status: 200 })),
    );
    results.forEach((facts, i) => {
      expect(facts, pages[i].url).toStrictEqual(
        extractPageFacts(Buffer.from(pages[i].html), { url: pages[i].url, headers: pages[i].headers, status: 200 }),
      );
    });
  });

  it('transfers a Buffer that owns its memory, and copies a slice of a shared one (leaving it intact)', async () => {
    // A Buffer over its own ArrayBuffer (Node 24's Buffer.concat may return a slice of its pool, which is copied).
    const owned = Buffer.from(new ArrayBuffer(8212)).fill(32);
    owned.write('<title>Owned</title>');
    expect((await pool.extract(owned, { url: `${origin}/a` })).titles).toEqual(['Owned']);
    expect(owned.byteLength).toBe(0); // moved to the thread: the crawler never reads a body after handing it over

    const shared = Buffer.from('xx<title>Slice</title>yy');
    const slice = shared.subarray(2, 22);
    expect((await pool.extract(slice, { url: `${origin}/b` })).titles).toEqual(['Slice']);
    expect(shared.toString()).toBe('xx<title>Slice</title>yy');
  });

  it('threads that cannot start leave the pool parsing in the calling thread, and say so once', async () => {
    const reasons: string[] = [];
    const broken = createPageFactsPool(2, {
      thread: { script: 'process.exit(3)', eval: true },
      onDegraded: (err) => reasons.push(err.message),
    });
    try {
      const facts = await broken.extract(Buffer.from('<title>Still parsed</title>'), { url: `${origin}/c` });
      expect(facts.titles).toEqual(['Still parsed']);
      expect((await broken.extract(Buffer.from('<title>Again</title>'), { url: `${origin}/d` })).titles).toEqual([
        'Again',
      ]);
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/did not start \(exit code 3\)/);
    } finally {
      await broken.close();
    }
  });

  it('a thread that dies fails only the page it held, and is replaced', async () => {
    // Says it is ready, then dies on its first page; its replacement (same program) does the same, so
    // every page fails cleanly instead of hanging, and the pool keeps answering.
    const script = `const { parentPort } = require('node:worker_threads');
      parentPort.on('message', () => process.exit(7));
      parentPort.postMessage({ ready: true });`;
    const crashing = createPageFactsPool(1, { thread: { script, eval: true } });
    try {
      await expect(crashing.extract(Buffer.from('<title>x</title>'), { url: `${origin}/e` })).rejects.toThrow(
        /thread exited \(code 7\)/,
      );
      await expect(crashing.extract(Buffer.from('<title>y</title>'), { url: `${origin}/f` })).rejects.toThrow(
        /thread exited \(code 7\)/,
      );
    } finally {
      await crashing.close();
    }
  });

  it('refuses work after close', async () => {
    const closing = createPageFactsPool(1);
    await closing.close();
    await expect(closing.extract(Buffer.from('<title>z</title>'), { url: `${origin}/g` })).rejects.toThrow(/closed/);
  });
});
