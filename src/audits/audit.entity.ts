import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { FixesShown } from '../seo/scoring/index.js';

export const AUDIT_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];
export const ACTIVE_STATUSES: AuditStatus[] = ['QUEUED', 'RUNNING'];
/** What a RUNNING audit is doing; null in every other status (a database constraint). */
export const AUDIT_PHASES = ['CRAWLING', 'ANALYZING', 'MEASURING', 'SAVING'] as const;
export type AuditPhase = (typeof AUDIT_PHASES)[number];

/**
 * An external link the crawl could not check (host not resolved, no answer in time, refused by our URL policy, the
 * per-address request cap reached): not a broken link.
 */
export interface UncheckedLink {
  url: string;
  reason: string;
}

/**
 * The audit's counts, in one vocabulary that every surface (app, PDF, CSV, CLI, the REST APIs and GraphQL) reads from
 * this one record (docs/counts.md), and the caps that bounded what was checked, each as "N of M".
 */
export interface AuditCounts {
  /** Every URL the crawler fetched as a page candidate: HTML pages, files, redirects, 4xx/5xx answers, failures. */
  urlsCrawled: number;
  /** Crawled HTML documents (2xx, analysed): the pages scores, health and page-level issues are shares of. */
  htmlPages: number;
  /** HTML pages that are indexable (no noindex, canonical to themselves, not blocked). */
  indexablePages: number;
  /**
   * Distinct external link targets on the crawled pages (`found`: of the links read; a page's past its cap are not),
   * how many got a verdict (`checked`: answered, or refused the connection), and how many were tried but could not
   * be checked (`couldNotCheck`: our URL policy refused the fetch, the per-address cap held the request back, host
   * not resolved, no answer in time). The rest were never tried: over the cap of distinct URLs (`overCap`), the
   * audit's time for them ran out (`outOfTime`), or the audit found it had no outside network (`noNetwork`). Absent
   * breakdowns (audits completed before they were kept) read as 0.
   */
  externalLinks: {
    found: number;
    checked: number;
    couldNotCheck: number;
    /** Of `couldNotCheck`: refused by our URL policy (nothing was sent). */
    refusedByPolicy?: number;
    /**
     * Of `couldNotCheck`: not sent, the audit's requests to that address reached the per-address cap
     * (LINK_CHECK_ADDRESS_CAP). The others of `couldNotCheck` got no answer.
     */
    addressCap?: number;
    /** Of those never tried: over the cap of distinct URLs per audit. */
    overCap?: number;
    /** Of those never tried: the audit's time for external checks ran out before their request. */
    outOfTime?: number;
    /**
     * Of those never tried: the audit found it had no outside network (outside host names stopped resolving, several
     * in a row) and stopped checking; the checks then in flight are counted here too. Never broken links.
     */
    noNetwork?: number;
    /** Of `checked`: verdicts reused from the project's checks of the last day (no request). */
    fromCache?: number;
    /**
     * Of those never tried: still being checked when the audit became readable (its pages, scores and issues
     * complete without them); 0 once their verdicts folded in (`Audit.externalLinksFinal`).
     */
    pending?: number;
    /**
     * Of those never tried: still being checked when the audit's worker stopped (a shutdown, a crash): no verdict,
     * never broken links, and the checks that read other hosts' answers were not evaluated.
     */
    workerStopped?: number;
  };
  /** Distinct subresources of the crawled pages (a page's first ones) and how many got a verdict (the budget). */
  resources: { found: number; checked: number };
  /** Pages measured in the lab (Chromium), of the HTML pages that could be (2xx). */
  labPages: { measured: number; eligible: number };
  /**
   * The links (`<a>`, `<area>`) on the HTML pages (`found`) and those read (`read`: followed, checked, in the link
   * graph). A page's links are read up to a guard against hostile pages (PAGE_FACT_LIMITS.links); `pagesOverCap`
   * pages had more, and their links past it (found - read) were not checked. Absent for audits completed before it
   * was counted.
   */
  links?: { found: number; read: number; pagesOverCap: number };
}

/** The links of the HTML pages as every surface shows them (AuditCounts.links with what was not read). */
export interface LinkCounts {
  found: number;
  read: number;
  /** found - read: links past their page's cap, not followed or checked. */
  notRead: number;
  pagesOverCap: number;
}

/** The external link counts as every surface shows them: each breakdown present, and what was never tried. */
export interface ExternalLinkCounts {
  found: number;
  checked: number;
  couldNotCheck: number;
  /** found - checked - couldNotCheck. */
  notTried: number;
  refusedByPolicy: number;
  /** Of couldNotCheck: not sent, the audit's requests to that address reached the per-address cap. */
  addressCap: number;
  /** couldNotCheck - refusedByPolicy - addressCap: the host did not resolve, or no answer came in time. */
  noAnswer: number;
  overCap: number;
  outOfTime: number;
  /** Of notTried: not checked, the audit had no outside network. */
  noNetwork: number;
  fromCache: number;
  /** Of notTried: still being checked (the audit is readable, its external verdicts not yet folded in). */
  pending: number;
  /** Of notTried: the audit's worker stopped before their answers came. */
  workerStopped: number;
}

/**
 * The counts as the APIs show them (the one place the derived numbers are computed): the external links never tried
 * (found - checked - couldNotCheck), those that got no answer (couldNotCheck - refusedByPolicy - addressCap: the
 * other two were never sent), and every breakdown (0 when not kept).
 */
export function withNotTried(
  c: AuditCounts,
): Omit<AuditCounts, 'links'> & { externalLinks: ExternalLinkCounts; links: LinkCounts | null } {
  const e = c.externalLinks;
  const l = c.links;
  const refusedByPolicy = e.refusedByPolicy ?? 0;
  const addressCap = e.addressCap ?? 0;
  return {
    ...c,
    externalLinks: {
      found: e.found,
      checked: e.checked,
      couldNotCheck: e.couldNotCheck,
      notTried: Math.max(0, e.found - e.checked - e.couldNotCheck),
      refusedByPolicy,
      addressCap,
      noAnswer: Math.max(0, e.couldNotCheck - refusedByPolicy - addressCap),
      overCap: e.overCap ?? 0,
      outOfTime: e.outOfTime ?? 0,
      noNetwork: e.noNetwork ?? 0,
      fromCache: e.fromCache ?? 0,
      pending: e.pending ?? 0,
      workerStopped: e.workerStopped ?? 0,
    },
    links: l ? { ...l, notRead: Math.max(0, l.found - l.read) } : null,
  };
}

/**
 * The links a page cap left unread, as every server-side surface words it (CLI, reports; the web app words the same
 * GraphQL fields alike): "2,000 links past the per-page cap on 1 page were not checked"; null when every link was read.
 */
export function linksNotReadNote(l: LinkCounts | null): string | null {
  if (!l || l.notRead <= 0) return null;
  const links = `${l.notRead.toLocaleString('en-US')} link${l.notRead === 1 ? '' : 's'}`;
  const pages = `${l.pagesOverCap.toLocaleString('en-US')} page${l.pagesOverCap === 1 ? '' : 's'}`;
  return `${links} past the per-page cap on ${pages} ${l.notRead === 1 ? 'was' : 'were'} not checked`;
}

/**
 * One page's links as its page view and exports word them: "12,000 links; 2,000 past the 10,000 read were not
 * checked" when some were not read, "12,000 links" otherwise.
 */
export function pageLinksNote(linkCount: number, notRead: number): string {
  const links = `${linkCount.toLocaleString('en-US')} link${linkCount === 1 ? '' : 's'}`;
  if (notRead <= 0) return links;
  const read = (linkCount - notRead).toLocaleString('en-US');
  const verb = notRead === 1 ? 'was' : 'were';
  return `${links}; ${notRead.toLocaleString('en-US')} past the ${read} read ${verb} not checked`;
}

/**
 * The sentence every surface shows when the audit had no outside network: "no outside network: 1,670 external links
 * not checked"; null when it had.
 */
export function noNetworkNote(e: Pick<ExternalLinkCounts, 'noNetwork'>): string | null {
  if (e.noNetwork <= 0) return null;
  const n = e.noNetwork;
  return `no outside network: ${n.toLocaleString('en-US')} external link${n === 1 ? '' : 's'} not checked`;
}

/**
 * Why external links were not checked, as every server-side surface words it (CLI, reports; the web app words the
 * same GraphQL fields alike): "20 refused by policy", "500 not sent: per-address cap", "3 no answer", "1,200 not
 * tried: over the cap", "40 not tried: out of time", "no outside network: 1,670 external links not checked", "475
 * still being checked: their verdicts fold in when they arrive", "475 not checked: the audit's worker stopped before
 * they answered", and "N not tried" for targets not tried for another reason. Only the non-zero ones.
 */
export function externalLinkGaps(e: ExternalLinkCounts): string[] {
  const other = e.notTried - e.overCap - e.outOfTime - e.noNetwork - e.pending - e.workerStopped;
  return [
    e.pending
      ? `${e.pending.toLocaleString('en-US')} still being checked: their verdicts fold in when they arrive`
      : '',
    e.workerStopped
      ? `${e.workerStopped.toLocaleString('en-US')} not checked: the audit's worker stopped before they answered`
      : '',
    e.refusedByPolicy ? `${e.refusedByPolicy.toLocaleString('en-US')} refused by policy` : '',
    e.addressCap ? `${e.addressCap.toLocaleString('en-US')} not sent: per-address cap` : '',
    e.noAnswer ? `${e.noAnswer.toLocaleString('en-US')} no answer` : '',
    e.overCap ? `${e.overCap.toLocaleString('en-US')} not tried: over the cap` : '',
    e.outOfTime ? `${e.outOfTime.toLocaleString('en-US')} not tried: out of time` : '',
    noNetworkNote(e) ?? '',
    other > 0 ? `${other.toLocaleString('en-US')} not tried` : '',
  ].filter(Boolean);
}

export const AuditEntity = defineEntity({
  name: 'Audit',
  tableName: 'audit',
  properties: (p) => ({
    id: p.uuid().primary(),
    projectId: p.uuid(),
    status: p.string().$type<AuditStatus>(),
    phase: p.string().$type<AuditPhase>().nullable(),
    jobId: p.string().unique(),
    overallScore: p.integer().nullable(),
    metaScore: p.integer().nullable(),
    contentScore: p.integer().nullable(),
    linksScore: p.integer().nullable(),
    technicalScore: p.integer().nullable(),
    performanceScore: p.integer().nullable(),
    pagesCrawled: p.integer(),
    pagesQueued: p.integer(),
    /** After the last page, the external link checks answered (or from the cache) of those found; 0 before. */
    externalLinksChecked: p.integer().default(0),
    externalLinksFound: p.integer().default(0),
    /** False while a COMPLETED audit's external verdicts are still to fold in (readable, not compared, no alerts). */
    externalLinksFinal: p.boolean().default(true),
    pagesFailed: p.integer().default(0),
    pagesDiscovered: p.integer().nullable(),
    crawlTruncated: p.boolean().default(false),
    uncheckedLinks: p.json<UncheckedLink[]>().nullable(),
    /** Null until the audit completes, and for audits completed before counts were kept. */
    counts: p.json<AuditCounts>().nullable(),
    maxPages: p.integer(),
    attempts: p.integer(),
    error: p.text().nullable(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  }),
});
export type Audit = InferEntity<typeof AuditEntity>;

export const AuditIssueEntity = defineEntity({
  name: 'AuditIssue',
  tableName: 'audit_issue',
  properties: (p) => ({
    id: p.uuid().primary(),
    auditId: p.uuid(),
    code: p.string(),
    title: p.string(),
    severity: p.string().$type<'CRITICAL' | 'WARNING' | 'NOTICE'>(),
    category: p.string().$type<'META' | 'CONTENT' | 'LINKS' | 'TECHNICAL' | 'PERFORMANCE'>(),
    description: p.text(),
    affectedPages: p.integer(),
    applicablePages: p.integer(),
    /** A fix-grouped check's fixes: how many, the widest (FIXES_LISTED) with their reach; null otherwise. */
    fixes: p.json<FixesShown>().nullable(),
    /** Of affectedPages: URLs charged as another check's fix (a linked 4xx/5xx URL: its broken links' fix). */
    chargedElsewhere: p.integer().default(0),
  }),
});
export type AuditIssue = InferEntity<typeof AuditIssueEntity>;
