import {
  CHECK_THRESHOLDS,
  PERF_NO_COMPRESSION,
  TECH_HSTS_MISSING,
  TECH_HTTP_PAGE,
  TECH_ROBOTS_MISSING,
  TECH_ROBOTS_UNREACHABLE,
  TECH_SITEMAP_INVALID,
  TECH_SITEMAP_MISSING,
  getCheck,
  type CheckCode,
  type Severity,
} from '../seo/checks/index.js';

/** The site facts a technical snapshot stores (the latest audit's). */
export interface SiteFacts {
  https: boolean | null;
  hsts: boolean | null;
  httpVersion: string | null;
  compression: string | null;
  robotsTxt: string | null;
  sitemap: string | null;
}

export type SiteFact = 'HTTPS' | 'HSTS' | 'HTTP_VERSION' | 'COMPRESSION' | 'ROBOTS_TXT' | 'SITEMAP';

/** One fact judged: passed is null when the audit could not tell. */
export interface SiteFactCheck {
  fact: SiteFact;
  label: string;
  passed: boolean | null;
  /** The stored value as text ("HTTP/2", "gzip", "404"...), or null when unknown. */
  value: string | null;
  /** Why it passed or failed, in a sentence. */
  reason: string;
  /**
   * When it failed: the severity of the issue the audit charges for it (the check's catalog severity), so that the
   * page's verdict says what the issues list says; null when it passed, is unknown, or no check charges it (HTTP/1.1:
   * informational, not an issue).
   */
  severity: Severity | null;
}

/** The catalog severity of the check that charges a failed fact. */
const chargedBy = (code: CheckCode): Severity => getCheck(code).severity;

const unknown = (fact: SiteFact, label: string): SiteFactCheck => ({
  fact,
  label,
  passed: null,
  value: null,
  reason: 'The latest audit could not tell.',
  severity: null,
});

function robotsCheck(status: string | null): SiteFactCheck {
  const label = 'robots.txt';
  if (status === null) return unknown('ROBOTS_TXT', label);
  const code = Number(status);
  if (status === 'unreachable' || code >= 500)
    return {
      fact: 'ROBOTS_TXT',
      label,
      passed: false,
      value: status,
      reason:
        `/robots.txt ${status === 'unreachable' ? 'could not be fetched' : `answers ${status}`}: ` +
        'crawlers treat the whole site as disallowed.',
      severity: chargedBy(TECH_ROBOTS_UNREACHABLE),
    };
  if (code >= 200 && code < 300)
    return {
      fact: 'ROBOTS_TXT',
      label,
      passed: true,
      value: status,
      reason: `/robots.txt answers ${status}.`,
      severity: null,
    };
  return {
    fact: 'ROBOTS_TXT',
    label,
    passed: false,
    value: status,
    reason:
      `/robots.txt answers ${status}: crawlers get no rules and no sitemap location from it ` +
      '(and may crawl everything).',
    // TECH_ROBOTS_MISSING judges 404 and 410; another 4xx is treated the same by crawlers (no rules).
    severity: chargedBy(TECH_ROBOTS_MISSING),
  };
}

function sitemapCheck(sitemap: string | null): SiteFactCheck {
  const label = 'Sitemap';
  if (sitemap === null) return unknown('SITEMAP', label);
  if (sitemap === 'valid')
    return {
      fact: 'SITEMAP',
      label,
      passed: true,
      value: sitemap,
      reason: 'A sitemap was found and parses.',
      severity: null,
    };
  return {
    fact: 'SITEMAP',
    label,
    passed: false,
    value: sitemap,
    reason:
      sitemap === 'invalid'
        ? 'The sitemap does not parse, exceeds 50,000 URLs or 50 MiB, or lists URLs of other hosts.'
        : 'robots.txt names no sitemap and /sitemap.xml does not answer 200.',
    severity: chargedBy(sitemap === 'invalid' ? TECH_SITEMAP_INVALID : TECH_SITEMAP_MISSING),
  };
}

/**
 * The pass/fail verdict of each site fact, with its reason: the same judgements as the audit's site checks
 * (TECH_HTTP_PAGE, TECH_HSTS_MISSING, TECH_ROBOTS_*, TECH_SITEMAP_*, PERF_NO_COMPRESSION), in one place for
 * every client.
 */
export function siteFactChecks(site: SiteFacts): SiteFactCheck[] {
  const { https, hsts, httpVersion, compression } = site;
  return [
    https === null
      ? unknown('HTTPS', 'HTTPS')
      : {
          fact: 'HTTPS',
          label: 'HTTPS',
          passed: https,
          value: https ? 'https' : 'http',
          reason: https
            ? 'The start page is served over HTTPS.'
            : 'The start page is served over plain HTTP: browsers mark it "Not secure".',
          severity: https ? null : chargedBy(TECH_HTTP_PAGE),
        },
    hsts === null
      ? unknown('HSTS', 'HSTS')
      : {
          fact: 'HSTS',
          label: 'HSTS',
          passed: hsts,
          value: hsts ? 'on' : 'off',
          reason: hsts
            ? 'A valid Strict-Transport-Security header keeps browsers on HTTPS.'
            : https === false
              ? 'HSTS needs HTTPS first.'
              : 'No valid Strict-Transport-Security header (missing, invalid or max-age=0).',
          // On http, HSTS does not apply (the audit charges "No HTTPS" instead).
          severity: hsts || https === false ? null : chargedBy(TECH_HSTS_MISSING),
        },
    httpVersion === null
      ? unknown('HTTP_VERSION', 'HTTP version')
      : {
          fact: 'HTTP_VERSION',
          label: 'HTTP version',
          passed: Number(httpVersion) >= 2,
          value: `HTTP/${httpVersion}`,
          reason:
            Number(httpVersion) >= 2
              ? `Served over HTTP/${httpVersion}: many resources load in parallel over one connection.`
              : `HTTP/${httpVersion} only: HTTP/2 would load many resources in parallel over one connection. ` +
                'Not an issue the audit charges: search engines crawl HTTP/1.1 sites alike.',
          severity: null,
        },
    {
      fact: 'COMPRESSION',
      label: 'Compression',
      passed: compression !== null,
      value: compression,
      reason:
        compression !== null
          ? `The start page is sent compressed (${compression}).`
          : 'The start page is sent without gzip, br or zstd compression ' +
            `(bodies under ${CHECK_THRESHOLDS.compressionMinBytes.toLocaleString('en-US')} bytes gain nothing ` +
            'from it).',
      severity: compression !== null ? null : chargedBy(PERF_NO_COMPRESSION),
    },
    robotsCheck(site.robotsTxt),
    sitemapCheck(site.sitemap),
  ];
}

/** A Core Web Vital with its good / needs-improvement / poor bounds (CHECK_THRESHOLDS.metrics, web.dev bands). */
export interface VitalBand {
  metric: 'LCP' | 'CLS' | 'INP' | 'TBT' | 'FCP' | 'TTFB';
  label: string;
  unit: 'ms' | '';
  /** Good up to and including this value. */
  good: number;
  /** Poor above this value; needs improvement between `good` and it. */
  poor: number;
}

const M = CHECK_THRESHOLDS.metrics;
const band = (metric: VitalBand['metric'], label: string, t: { good: number; poor: number; unit: string }) =>
  ({ metric, label, unit: t.unit as VitalBand['unit'], good: t.good, poor: t.poor }) satisfies VitalBand;

/** The bands of the six measured metrics, in the order a report shows them. */
export const VITAL_BANDS: readonly VitalBand[] = [
  band('LCP', 'Largest Contentful Paint', M.lcp),
  band('CLS', 'Cumulative Layout Shift', M.cls),
  band('INP', 'Interaction to Next Paint', M.inp),
  band('TBT', 'Total Blocking Time', M.tbt),
  band('FCP', 'First Contentful Paint', M.fcp),
  band('TTFB', 'Time to First Byte', M.ttfb),
];
