import { describe, expect, it } from 'vitest';
import { CHECK_THRESHOLDS } from '../../../src/seo/checks/index.js';
import { VITAL_BANDS, siteFactChecks } from '../../../src/technical/index.js';

const verdicts = (site: Parameters<typeof siteFactChecks>[0]) =>
  Object.fromEntries(siteFactChecks(site).map((c) => [c.fact, c]));

describe('siteFactChecks', () => {
  it('passes a well-configured site, each with its reason', () => {
    const v = verdicts({
      https: true,
      hsts: true,
      httpVersion: '2',
      compression: 'br',
      robotsTxt: '200',
      sitemap: 'valid',
    });
    expect(Object.keys(v)).toEqual(['HTTPS', 'HSTS', 'HTTP_VERSION', 'COMPRESSION', 'ROBOTS_TXT', 'SITEMAP']);
    for (const c of Object.values(v)) expect(c.passed, c.fact).toBe(true);
    expect(v.HTTP_VERSION.value).toBe('HTTP/2');
    expect(v.COMPRESSION.reason).toMatch(/compressed \(br\)/);
  });

  it('fails each missing fact with why it matters', () => {
    const v = verdicts({
      https: false,
      hsts: false,
      httpVersion: '1.1',
      compression: null,
      robotsTxt: '404',
      sitemap: 'missing',
    });
    for (const c of Object.values(v)) expect(c.passed, c.fact).toBe(false);
    expect(v.HTTPS.reason).toMatch(/plain HTTP/);
    expect(v.HSTS.reason).toMatch(/needs HTTPS first/);
    expect(v.HTTP_VERSION.reason).toMatch(/HTTP\/1\.1 only/);
    expect(v.ROBOTS_TXT.reason).toMatch(/answers 404/);
    expect(v.SITEMAP.reason).toMatch(/names no sitemap/);
    // Each failed fact says the severity of the issue the audit charges for it: the issues list's verdict.
    expect(Object.fromEntries(Object.values(v).map((c) => [c.fact, c.severity]))).toEqual({
      HTTPS: 'WARNING', // TECH_HTTP_PAGE, "No HTTPS"
      HSTS: null, // not applicable over http
      HTTP_VERSION: null, // informational: no check charges HTTP/1.1
      COMPRESSION: 'NOTICE', // PERF_NO_COMPRESSION
      ROBOTS_TXT: 'NOTICE', // TECH_ROBOTS_MISSING
      SITEMAP: 'WARNING', // TECH_SITEMAP_MISSING
    });
  });

  it('treats an unreachable or 5xx robots.txt as blocking, an invalid sitemap as failed, unknowns as unknown', () => {
    expect(
      verdicts({
        https: true,
        hsts: false,
        httpVersion: null,
        compression: null,
        robotsTxt: 'unreachable',
        sitemap: 'invalid',
      }),
    ).toMatchObject({
      HSTS: { passed: false, reason: expect.stringMatching(/max-age=0/) },
      HTTP_VERSION: { passed: null, value: null },
      ROBOTS_TXT: { passed: false, reason: expect.stringMatching(/whole site as disallowed/), severity: 'CRITICAL' },
      SITEMAP: { passed: false, reason: expect.stringMatching(/does not parse/), severity: 'WARNING' },
    });
    expect(
      verdicts({ https: true, hsts: true, httpVersion: '2', compression: 'gzip', robotsTxt: '503', sitemap: 'valid' })
        .ROBOTS_TXT.passed,
    ).toBe(false);
  });
});

describe('VITAL_BANDS', () => {
  it('are the PERF_* check thresholds, not a copy', () => {
    const byMetric = Object.fromEntries(VITAL_BANDS.map((b) => [b.metric, b]));
    expect(Object.keys(byMetric)).toEqual(['LCP', 'CLS', 'INP', 'TBT', 'FCP', 'TTFB']);
    for (const [metric, band] of Object.entries(byMetric)) {
      const t = CHECK_THRESHOLDS.metrics[metric.toLowerCase() as keyof typeof CHECK_THRESHOLDS.metrics];
      expect(band).toMatchObject({ good: t.good, poor: t.poor, unit: t.unit });
    }
    expect(byMetric.LCP).toMatchObject({ good: 2500, poor: 4000 });
    expect(byMetric.CLS).toMatchObject({ good: 0.1, poor: 0.25, unit: '' });
  });
});
