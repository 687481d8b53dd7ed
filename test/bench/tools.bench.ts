import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import robotsParserModule from 'robots-parser';
import { SaxesParser } from 'saxes';
import { analyzeRobotsTxt } from '../../src/seo/robots/index.js';
import { validateSitemap } from '../../src/seo/sitemap/index.js';

// robots-parser is CommonJS whose typings declare an ES default export; under NodeNext the default is the function
// itself.
const robotsParser = robotsParserModule as unknown as (
  url: string,
  text: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

/**
 * Free-tool analyzers, each against a baseline measured in the same run:
 * - robots.txt of 500 KiB: our parse + validate + 100 URL tests vs robots-parser (parse + the same 100 tests, no
 * validation);
 * - sitemap of 50,000 URLs, plain and gzip: our streaming validator vs bare saxes parsing of the same bytes (the
 * floor).
 * Timing: median of warm runs; memory: peak RSS growth sampled during one run, after a GC.
 */

function robotsFile(): { text: string; tests: string[] } {
  const lines = ['User-agent: *'];
  let i = 0;
  while (lines.join('\n').length < 500 * 1024 - 200) {
    if (i % 500 === 0) lines.push('', `User-agent: bot-${i}`);
    lines.push(`${i % 3 ? 'Disallow' : 'Allow'}: /section-${i % 97}/item-${i}/*.php$`);
    i++;
  }
  const text = `${lines.join('\n')}\nSitemap: https://example.com/sitemap.xml\n`;
  const tests = Array.from({ length: 100 }, (_, k) => `https://example.com/section-${k % 97}/item-${k * 37}/page.php`);
  return { text, tests };
}

function sitemapXml(count: number): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = 0; i < count; i++) {
    parts.push(
      `<url><loc>https://example.com/products/item-${i}?ref=sitemap&amp;v=${i % 7}</loc><lastmod>2025-` +
        `0${(i % 9) + 1}-1${i % 10}T10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0` +
        `.${i % 10}</priority></url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

async function timeIt(
  runs: number,
  fn: () => unknown | Promise<unknown>,
): Promise<{ medianMs: number; firstMs: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { firstMs: times[0], medianMs: sorted[Math.floor(sorted.length / 2)] };
}

async function peakRssGrowthMb(fn: () => Promise<unknown>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  await fn();
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(timer);
  return (peak - base) / 1024 / 1024;
}

const saxesOnly = (xml: Buffer) => {
  const parser = new SaxesParser({ xmlns: true });
  let n = 0;
  parser.on('opentag', () => n++);
  parser.write(xml.toString('utf8')).close();
  return n;
};

function memoryInChild(kind: 'plain' | 'gzip'): number {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, TOOLS_BENCH_MEMORY: kind },
    encoding: 'utf8',
  });
  return Number(JSON.parse(out.trim().split('\n').at(-1)!).peakGrowthMb);
}

/** Child mode: build the input, then measure one validation's peak RSS growth. */
if (process.env.TOOLS_BENCH_MEMORY) {
  const xml = Buffer.from(sitemapXml(50_000));
  const input = process.env.TOOLS_BENCH_MEMORY === 'gzip' ? gzipSync(xml) : xml;
  const peakGrowthMb = await peakRssGrowthMb(() =>
    validateSitemap(process.env.TOOLS_BENCH_MEMORY === 'gzip' ? Readable.from([input]) : input),
  );
  console.log(JSON.stringify({ peakGrowthMb }));
}

export async function runToolsBench(): Promise<{ ok: boolean }> {
  const { text, tests } = robotsFile();
  const robotsOurs = await timeIt(30, () => analyzeRobotsTxt(text, { testUrls: tests, userAgent: 'SEOAuditBot' }));
  const robotsBaseline = await timeIt(30, () => {
    const r = robotsParser('https://example.com/robots.txt', text);
    return tests.map((u) => r.isAllowed(u, 'SEOAuditBot'));
  });

  const xml = Buffer.from(sitemapXml(50_000));
  const gz = gzipSync(xml);
  const plain = await timeIt(7, () => validateSitemap(xml));
  const gzip = await timeIt(7, () => validateSitemap(Readable.from([gz])));
  const floor = await timeIt(7, () => saxesOnly(xml));
  const check = await validateSitemap(xml);
  // Memory in fresh processes: a warm heap would hide what one validation needs.
  const memPlain = memoryInChild('plain');
  const memGzip = memoryInChild('gzip');

  const rows = [
    [
      'robots.txt 500 KiB: parse + validate + 100 tests (ours)',
      robotsOurs.medianMs,
      robotsOurs.firstMs,
      robotsOurs.medianMs / robotsBaseline.medianMs,
      '< 20 ms',
    ],
    ['robots.txt: robots-parser, parse + 100 tests (baseline)', robotsBaseline.medianMs, robotsBaseline.firstMs, 1, ''],
    [
      `sitemap 50,000 URLs plain (${(xml.length / 1e6).toFixed(1)} MB): validate (ours)`,
      plain.medianMs,
      plain.firstMs,
      plain.medianMs / floor.medianMs,
      '< 300 ms',
    ],
    [
      `sitemap 50,000 URLs gzip (${(gz.length / 1e3).toFixed(0)} KB): validate (ours)`,
      gzip.medianMs,
      gzip.firstMs,
      gzip.medianMs / floor.medianMs,
      '< 300 ms',
    ],
    ['sitemap: bare saxes parse of the same XML (floor)', floor.medianMs, floor.firstMs, 1, ''],
  ] as const;
  console.log(
    `${'measurement'.padEnd(66)} ${'median ms'.padStart(10)} ${'first ms'.padStart(9)} ${'ratio'.padStart(7)}  target`,
  );
  for (const [name, median, first, ratio, target] of rows) {
    console.log(
      `${name.padEnd(66)} ${median.toFixed(1).padStart(10)} ${first.toFixed(1).padStart(9)} ` +
        `${ratio.toFixed(2).padStart(7)}  ${target}`,
    );
  }
  console.log(
    `sitemap peak RSS growth: plain ${memPlain.toFixed(1)} MB, gzip ${memGzip.toFixed(1)} MB (target < ` +
      `100 MB); validator saw ${check.urlCount} URLs, valid=${check.valid}`,
  );
  const ok =
    robotsOurs.medianMs < 20 &&
    plain.medianMs < 300 &&
    gzip.medianMs < 300 &&
    memPlain < 100 &&
    memGzip < 100 &&
    check.urlCount === 50_000;
  console.log(
    JSON.stringify({
      bench: 'tools',
      robotsMs: robotsOurs.medianMs,
      robotsBaselineMs: robotsBaseline.medianMs,
      sitemapPlainMs: plain.medianMs,
      sitemapGzipMs: gzip.medianMs,
      saxesFloorMs: floor.medianMs,
      sitemapPlainPeakMb: memPlain,
      sitemapGzipPeakMb: memGzip,
      meetsTargets: ok,
    }),
  );
  return { ok };
}
