import http from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConfiguredSafeHttpClient } from '../../src/platform/safe-http/index.js';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawler/index.js';
import { runAuditEngine, type OccurrenceRecord } from '../../src/audits/index.js';
import { createLabMeter } from '../../src/technical/index.js';
import { CHROMIUM } from '../support/chromium.js';
import { describeWithChromium } from '../support/chromium-suite.js';

/** A solid 1200x800 PNG: LCP counts an image at its intrinsic size, so it must really be large. */
function largePng(width = 1200, height = 800): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3, 0x7a);
  row[0] = 0;
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = largePng();
const PAGE =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Layout shift and a late hero image ` +
  `page</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0;font:16px sans-serif">
<p id="text">${'Some text that will be pushed down by a banner. '.repeat(20)}</p>
<img src="/hero.png" alt="hero" width="1200" height="800" style="width:1200px;height:800px">
<script>setTimeout(() => { const b = document.createElement('div'); b.style.height = '400px'; ` +
  `b.textContent = 'Late banner'; document.body.prepend(b); }, 300);</script>
</body></html>`;

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/hero.png')
      return setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG), 1200);
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    res.writeHead(404).end();
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
});
afterAll(() => server.close());

describeWithChromium(CHROMIUM)('Core Web Vitals in an audit, measured in real Chromium', () => {
  it(
    'a known layout shift and a late large image show up as LAB metrics, PERF issues and the Lighthouse ' +
      'performance score',
    async () => {
      const client = createConfiguredSafeHttpClient({
        SAFE_HTTP_ALLOW: ['127.0.0.1/32'],
        SAFE_HTTP_RESOLVE: 'cwv.test=127.0.0.1',
        CRAWLER_USER_AGENT: 'SEOAuditBot/1.0',
      });
      const meter = createLabMeter({ chromiumPath: CHROMIUM, hostPins: new Map([['cwv.test', '127.0.0.1']]) });
      const occurrences: OccurrenceRecord[] = [];
      try {
        const outcome = await runAuditEngine(
          client,
          { ...DEFAULT_CRAWL_OPTIONS, startUrl: `http://cwv.test:${port}/`, maxPages: 5, userAgent: 'SEOAuditBot/1.0' },
          { pages: async () => undefined, occurrences: async (rows) => void occurrences.push(...rows) },
          (urls) => meter.measure(urls),
        );
        const [start] = outcome.vitals;
        expect(start).toMatchObject({ url: `http://cwv.test:${port}/`, source: 'LAB' });
        expect(start.cls).toBeGreaterThan(0.1);
        expect(start.lcpMs).toBeGreaterThanOrEqual(1000);
        expect(start.fcpMs).toBeGreaterThan(0);
        expect(start.ttfbMs).toBeGreaterThanOrEqual(0);
        expect(start.performanceScore).toBeLessThan(100);
        const codes = occurrences.map((o) => o.code);
        expect(codes).toContain('PERF_CLS');
        // The audit's performance score starts from the Lighthouse-style score of the lab metrics, minus what the
        // category's issues Lighthouse does not weigh cost (PERF_CLS, which it does, costs nothing more).
        const { labPerformance, costs } = outcome.breakdown;
        expect(labPerformance).toBe(start.performanceScore);
        const others = costs.filter((c) => c.category === 'PERFORMANCE');
        expect(others.map((c) => c.code)).not.toContain('PERF_CLS');
        const lost = others.reduce((sum, c) => sum + c.points, 0);
        expect(outcome.scores.performance).toBe(Math.max(0, Math.round(start.performanceScore! - lost)));
      } finally {
        await meter.close();
        await client.close();
      }
    },
    90_000,
  );
});
