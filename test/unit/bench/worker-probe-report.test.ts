import { describe, expect, it } from 'vitest';
import {
  auditBreakdown,
  classifyRequest,
  classifyStatement,
  cpuAt,
  type ProbeData,
} from '../../bench/worker-probe-report.js';
import { realFigures, type RealRun } from '../../bench/real-bench-report.js';

const SITE = 'http://pgdocs.test:8108';

describe('classifyStatement', () => {
  it('turns the audit phase changes into marks', () => {
    expect(classifyStatement('UPDATE audit SET phase = $3 WHERE id = $1', ['a', 1, 'ANALYZING'])).toEqual({
      kind: 'update audit (phase)',
      mark: 'phase ANALYZING',
    });
    expect(
      classifyStatement(`UPDATE audit SET status = $3, phase = 'CRAWLING', started_at = now() WHERE id = $1`).mark,
    ).toBe('claim');
    expect(classifyStatement('UPDATE audit SET status = $12, phase = NULL, overall_score = $3').mark).toBe('complete');
  });

  it('names other statements by verb and table', () => {
    expect(classifyStatement('  INSERT INTO audit_page (audit_id) VALUES ($1)')).toEqual({ kind: 'insert audit_page' });
    expect(classifyStatement('UPDATE audit SET pages_crawled = $2').kind).toBe('update audit');
    expect(classifyStatement('SELECT status\n FROM audit WHERE id = $1').kind).toBe('select audit');
    expect(classifyStatement('VACUUM audit_page').kind).toBe('vacuum');
  });
});

describe('classifyRequest', () => {
  it('tells pages from robots, site files, resource checks and external links', () => {
    expect(classifyRequest(SITE, SITE, 'GET', '/tutorial.html')).toBe('page');
    expect(classifyRequest(SITE, `${SITE}/`, 'GET', '/')).toBe('page');
    expect(classifyRequest(SITE, SITE, 'GET', '/robots.txt')).toBe('robots/sitemap');
    expect(classifyRequest(SITE, SITE, 'GET', '/sitemap_index.xml')).toBe('robots/sitemap');
    expect(classifyRequest(SITE, SITE, 'GET', '/favicon.ico')).toBe('site file');
    expect(classifyRequest(SITE, SITE, 'HEAD', '/stylesheet.css')).toBe('resource check');
    expect(classifyRequest(SITE, SITE, 'GET', '/gin.svg?x=1')).toBe('resource check');
    expect(classifyRequest(SITE, 'https://www.postgresql.org', 'HEAD', '/docs/')).toBe('external');
    expect(classifyRequest(SITE, 'http://pgdocs.test:9999', 'GET', '/a.html')).toBe('external');
  });
});

describe('cpuAt', () => {
  const samples: ProbeData['cpu'] = [
    [0, 0],
    [100, 50],
    [200, 150],
  ];
  it('interpolates between samples and clamps outside them', () => {
    expect(cpuAt(samples, 50)).toBe(25);
    expect(cpuAt(samples, 150)).toBe(100);
    expect(cpuAt(samples, 100)).toBe(50);
    expect(cpuAt(samples, -10)).toBe(0);
    expect(cpuAt(samples, 999)).toBe(150);
    expect(cpuAt([], 5)).toBe(0);
  });
});

describe('auditBreakdown', () => {
  // timeOrigin 1000: probe time t is epoch 1000 + t. The job is added at epoch 1100 (probe time 100).
  const probe: ProbeData = {
    timeOrigin: 1000,
    loadedAt: 0,
    requests: [
      [SITE, 'GET', '/robots.txt', 150, 160, 165, 404, null],
      [SITE, 'GET', '/', 200, 210, 220, 200, null],
      [SITE, 'GET', '/a.html', 220, 230, 300, 200, null],
      [SITE, 'HEAD', '/style.css', 250, 260, -1, 200, null],
      ['https://example.org', 'HEAD', '/', 260, -1, 900, -1, 'ENOTFOUND'],
      [SITE, 'GET', '/favicon.ico', 310, 320, 330, 404, null],
    ],
    lookups: [
      ['example.org', 260, 890, 'ENOTFOUND'],
      ['example.org', 270, 280, 'ENOTFOUND'],
    ],
    queries: [
      ['update audit (claim)', 110, 140],
      ['insert audit_page', 250, 290],
      ['insert audit_page', 280, 320],
      ['update audit (phase)', 900, 910],
      ['update audit (phase)', 950, 960],
      ['update audit (phase)', 970, 980],
      ['update audit (complete)', 990, 1000],
    ],
    marks: [
      ['claim', 140],
      ['phase ANALYZING', 910],
      ['phase MEASURING', 960],
      ['phase SAVING', 980],
      ['complete', 1000],
    ],
    cpu: [
      [0, 0],
      [1000, 1000],
    ],
  };

  it('cuts the audit into sequential spans at the marks and the page window', () => {
    const b = auditBreakdown(probe, SITE, 1100);
    expect(b.spans.map((s) => [s.wallMs, s.cpuMs])).toEqual([
      [40, 40], // pick-up: 100 -> claim 140
      [60, 60], // robots: 140 -> first page 200
      [100, 100], // pages: 200 -> last page end 300
      [610, 610], // tail: 300 -> ANALYZING 910
      [50, 50],
      [20, 20],
      [20, 20],
    ]);
    expect(b.endToEndMs).toBe(900);
    expect(b.spans.reduce((s, x) => s + x.wallMs, 0)).toBe(b.endToEndMs);
    expect(b.pages).toEqual({ count: 2, start: 200, end: 300 });
    expect(b.warnings).toEqual([]);
  });

  it('counts requests by kind and how long each kind outlasts the pages', () => {
    const b = auditBreakdown(probe, SITE, 1100);
    const of = (kind: string) => b.requests.find((g) => g.kind === kind)!;
    expect(of('external')).toMatchObject({ count: 1, failed: 1, distinct: 1, endsAfterPagesMs: 600 });
    expect(of('resource check')).toMatchObject({ count: 1, failed: 0, endsAfterPagesMs: 0 });
    expect(of('site file')).toMatchObject({ count: 1, failed: 1, endsAfterPagesMs: 30 });
    expect(of('robots/sitemap').failed).toBe(1);
    expect(b.lookups).toEqual({ count: 2, failed: 2, sumMs: 640, maxMs: 630, hosts: 1 });
    expect(b.spans[3].note).toContain('the last ended 600 ms after the last page');
  });

  it('sums statement time by kind, and the part inside the pages window', () => {
    const pages = auditBreakdown(probe, SITE, 1100).queries.find((q) => q.kind === 'insert audit_page')!;
    expect(pages).toEqual({ kind: 'insert audit_page', count: 2, sumMs: 80, inPagesMs: 40 + 20 });
  });

  it('falls back to the completion time it is given, and fails without one', () => {
    const noComplete = { ...probe, marks: probe.marks.filter((m) => m[0] !== 'complete') };
    expect(auditBreakdown(noComplete, SITE, 1100, 2050).endToEndMs).toBe(950);
    expect(() => auditBreakdown(noComplete, SITE, 1100)).toThrow(/never completed/);
  });
});

describe('realFigures', () => {
  const run = (
    round: number,
    side: RealRun['side'],
    seconds: number,
    cpuMs: number,
    crawlSeconds: number,
  ): RealRun => ({
    round,
    side,
    pages: 100,
    distinctServed: 100,
    seconds,
    crawlSeconds,
    cpuMs,
    crawlCpuMs: cpuMs / 2,
    bootMs: side === 'ours' ? 1000 : null,
    peakRssMb: 100,
    served: 100,
    serverCpuMs: 10,
  });

  it('leaves warm-up out and states ratios as how many times better ours is', () => {
    const f = realFigures([
      run(0, 'ours', 100, 100, 100),
      run(0, 'crawlee', 1, 1, 1),
      run(1, 'ours', 2, 100, 1),
      run(1, 'crawlee', 6, 500, 4),
      run(2, 'crawlee', 6, 500, 4),
      run(2, 'ours', 4, 100, 1),
    ]);
    expect(f.oursSeconds).toBe(3);
    expect(f.endToEnd).toBe(2);
    expect(f.endToEndPerRound).toEqual([3, 1.5]);
    expect(f.crawlPhase).toBe(4);
    expect(f.cpuPerPage).toBe(5);
    expect(f.crawlCpuPerPage).toBe(10);
    expect(f.oursBootMs).toBe(1000);
  });
});
