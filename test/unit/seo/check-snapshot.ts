/**
 * The snapshot that proves a refactor of the checks left every code as it was (issue 49): per catalog code, in
 * catalog order, its catalog entry, guidance, evidence kind and keys, and, for each occurrence the fixture-site
 * audits produce, the evidence view and the fix proposal. check-snapshot.test.ts recomputes everything but the
 * crawl from the stored occurrences; test/integration/check-fixture-sites-snapshot.test.ts crawls the fixture sites
 * again and compares the occurrences themselves. `UPDATE_CHECK_SNAPSHOT=1` on the integration test rewrites it.
 */
import { readFileSync } from 'node:fs';
import {
  CHECK_CATALOG,
  CHECK_GUIDANCE,
  EVIDENCE_KEYS_BY_CODE,
  EVIDENCE_KIND_BY_CODE,
  presentEvidence,
  type CheckCode,
} from '../../../src/seo/checks/index.js';
import { suggestFix, type FixPageContext } from '../../../src/seo/fixes/index.js';

export const CHECK_SNAPSHOT_PATH = new URL('../../fixtures/checks/check-snapshot.json', import.meta.url);

export interface SnapshotOccurrence {
  site: string;
  code: string;
  url: string;
  evidence: Record<string, unknown> | null;
}

export interface CheckSnapshot {
  codes: Record<string, unknown>[];
  occurrences: SnapshotOccurrence[];
  presented: unknown[];
}

/** A page digest for the fix rules that read the page (title, headings, images, links, hreflang). */
export function samplePage(url: string): FixPageContext {
  const resolve = (ref: string): string | null => (URL.canParse(ref, url) ? new URL(ref, url).href : null);
  return {
    url,
    title: 'Oak dining tables | Oak & Iron',
    description: 'Solid oak dining tables made to order in our workshop and delivered across the country.',
    h1: ['Oak dining tables'],
    headings: [
      { level: 1, text: 'Oak dining tables' },
      { level: 2, text: 'Round tables' },
    ],
    paragraphs: ['Every table is made from solid oak in our workshop and finished by hand with natural oils.'],
    lang: 'en',
    canonical: url,
    images: [{ src: '/img/oak-table.jpg', url: resolve('/img/oak-table.jpg'), alt: null }],
    links: [{ href: '/tables/round', url: resolve('/tables/round'), text: 'Round tables' }],
    siteName: 'Oak & Iron',
    locale: 'en_GB',
    ogImage: null,
    hreflang: [{ lang: 'en', href: url }],
    sitePattern: null,
  };
}

/** Everything about the codes and the stored occurrences that does not need a crawl. */
export function describeChecks(occurrences: readonly SnapshotOccurrence[]): Omit<CheckSnapshot, 'occurrences'> {
  const codes = CHECK_CATALOG.map((check) => ({
    ...check,
    guidance: CHECK_GUIDANCE[check.code],
    evidenceKind: EVIDENCE_KIND_BY_CODE[check.code],
    evidenceKeys: EVIDENCE_KEYS_BY_CODE[check.code],
    fixWithoutEvidence: suggestFix({ code: check.code, url: 'https://example.test/page', evidence: null, page: null }),
  }));
  const presented = occurrences.map(({ code, url, evidence }) => {
    const checkCode = code as CheckCode;
    return {
      code,
      url,
      view: presentEvidence(checkCode, evidence, url),
      fix: suggestFix({ code: checkCode, url, evidence, page: null }),
      fixOnPage: suggestFix({ code: checkCode, url, evidence, page: samplePage(url) }),
    };
  });
  return { codes, presented };
}

export function readCheckSnapshot(): CheckSnapshot {
  return JSON.parse(readFileSync(CHECK_SNAPSHOT_PATH, 'utf8')) as CheckSnapshot;
}

/** JSON round trip: what the snapshot file can hold (undefined keys dropped), to compare like with like. */
export function asStored<V>(value: V): V {
  return JSON.parse(JSON.stringify(value)) as V;
}
