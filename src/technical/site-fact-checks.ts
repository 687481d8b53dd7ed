import { CHECK_THRESHOLDS } from '../seo/checks/index.js';

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
}

const unknown = (fact: SiteFact, label: string): SiteFactCheck => ({
  fact,
  label,
  passed: null,
  value: null,
  reason: 'The latest audit could not tell.',
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
    };
  if (code >= 200 && code < 300)
    return { fact: 'ROBOTS_TXT', label, passed: true, value: status, reason: `/robots.txt answers ${status}.` };
  return {
    fact: 'ROBOTS_TXT',
    label,
    passed: false,
    value: status,
    reason: `/robots.txt answers ${status}: crawlers get no rules and no sitemap location from it.`,
  };
}

function sitemapCheck(sitemap: string | null): SiteFactCheck {
  const label = 'Sitemap';
  if (sitemap === null) return unknown('SITEMAP', label);
  if (sitemap === 'valid')
    return { fact: 'SITEMAP', label, passed: true, value: sitemap, reason: 'A sitemap was found and parses.' };
  return {
    fact: 'SITEMAP',
    label,
    passed: false,
    value: sitemap,
    reason:
      sitemap === 'invalid'
        ? 'The sitemap does not parse, exceeds 50,000 URLs or 50 MiB, or lists URLs of other hosts.'
        : 'robots.txt names no sitemap and /sitemap.xml does not answer 200.',
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
              : `HTTP/${httpVersion} only: HTTP/2 loads many resources in parallel over one connection.`,
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
  band('LCP', 'Largest Contentful Paint', M.PERF_LCP),
  band('CLS', 'Cumulative Layout Shift', M.PERF_CLS),
  band('INP', 'Interaction to Next Paint', M.PERF_INP),
  band('TBT', 'Total Blocking Time', M.PERF_TBT),
  band('FCP', 'First Contentful Paint', M.PERF_FCP),
  band('TTFB', 'Time to First Byte', M.PERF_TTFB),
];
