/**
 * The snapshot that proves a refactor of the checks left every code as it was (issue 49), keyed by code (issue 62):
 * for each catalog code, its catalog entry, guidance, evidence kind and keys and the fix proposed without evidence,
 * and each occurrence the fixture-site audits produce with its evidence view and fix proposals. The codes are written
 * in alphabetical order, so adding, removing or reordering codes in the catalog changes only the entries of the codes
 * concerned. check-snapshot.test.ts recomputes everything but the crawl from the stored occurrences;
 * test/integration/check-fixture-sites-snapshot.test.ts crawls the fixture sites again and compares the occurrences
 * themselves. `UPDATE_CHECK_SNAPSHOT=1` on the integration test rewrites it.
 */
import { readFileSync } from 'node:fs';
import {
  CHECK_CATALOG,
  CHECK_GUIDANCE,
  EVIDENCE_KEYS_BY_CODE,
  EVIDENCE_KIND_BY_CODE,
  presentEvidence,
  type CheckCode,
  type CheckDefinition,
} from '../../../src/seo/checks/index.js';
import { suggestFix, type FixPageContext } from '../../../src/seo/fixes/index.js';

export const CHECK_SNAPSHOT_PATH = new URL('../../fixtures/checks/check-snapshot.json', import.meta.url);

/** One occurrence as an audit of the fixture sites reports it. */
export interface SnapshotOccurrence {
  site: string;
  code: string;
  url: string;
  evidence: Record<string, unknown> | null;
}

/** An occurrence as the snapshot stores it under its code: what the audit reported, how it is shown and fixed. */
export interface StoredOccurrence {
  site: string;
  url: string;
  evidence: Record<string, unknown> | null;
  view: unknown;
  fix: unknown;
  fixOnPage: unknown;
}

/** Everything the snapshot holds of one code. */
export interface CodeSnapshot {
  /** Its catalog entry, guidance, evidence kind and keys, and the fix proposed without evidence. */
  check: Record<string, unknown>;
  /** Its occurrences in the fixture-site audits, by site, URL and evidence. */
  occurrences: StoredOccurrence[];
}

/** Keyed by code. */
export type CheckSnapshot = Record<string, CodeSnapshot>;

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

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order of a code's occurrences: by site, URL, then evidence. */
function occurrenceKey(o: { site: string; url: string; evidence: unknown }): string {
  return `${o.site}\u0000${o.url}\u0000${JSON.stringify(o.evidence)}`;
}

/**
 * The snapshot of `catalog` (the check catalog unless a test gives another order) with `occurrences`, everything but
 * the crawl recomputed. Occurrences of a code the catalog lacks are left out.
 */
export function buildCheckSnapshot(
  occurrences: readonly SnapshotOccurrence[],
  catalog: readonly CheckDefinition[] = CHECK_CATALOG,
): CheckSnapshot {
  const snapshot: CheckSnapshot = {};
  for (const check of [...catalog].sort((a, b) => byText(a.code, b.code))) {
    const code = check.code as CheckCode;
    const stored = occurrences
      .filter((o) => o.code === code)
      .sort((a, b) => byText(occurrenceKey(a), occurrenceKey(b)))
      .map(({ site, url, evidence }) => ({
        site,
        url,
        evidence,
        view: presentEvidence(code, evidence, url),
        fix: suggestFix({ code, url, evidence, page: null }),
        fixOnPage: suggestFix({ code, url, evidence, page: samplePage(url) }),
      }));
    snapshot[code] = {
      check: {
        ...check,
        guidance: CHECK_GUIDANCE[code],
        evidenceKind: EVIDENCE_KIND_BY_CODE[code],
        evidenceKeys: EVIDENCE_KEYS_BY_CODE[code],
        fixWithoutEvidence: suggestFix({ code, url: 'https://example.test/page', evidence: null, page: null }),
      },
      occurrences: stored,
    };
  }
  return snapshot;
}

/** The stored occurrences as the audits report them, code by code. */
export function snapshotOccurrences(snapshot: CheckSnapshot): SnapshotOccurrence[] {
  return Object.entries(snapshot).flatMap(([code, entry]) =>
    entry.occurrences.map(({ site, url, evidence }) => ({ site, code, url, evidence })),
  );
}

/** The file's text: the snapshot as JSON, one space of indent, codes in alphabetical order. */
export function snapshotText(snapshot: CheckSnapshot): string {
  const sorted = Object.fromEntries(Object.entries(snapshot).sort(([a], [b]) => byText(a, b)));
  return `${JSON.stringify(asStored(sorted), null, 1)}\n`;
}

export function readCheckSnapshot(): CheckSnapshot {
  return JSON.parse(readFileSync(CHECK_SNAPSHOT_PATH, 'utf8')) as CheckSnapshot;
}

/** JSON round trip: what the snapshot file can hold (undefined keys dropped), to compare like with like. */
export function asStored<V>(value: V): V {
  return JSON.parse(JSON.stringify(value)) as V;
}
