import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { EvidenceViewType } from './evidence.types.js';
import { INLINKS_DESCRIPTION } from './inlinks.js';
import type { RankingPages } from './ranking-pages.js';
// The catalog's severities and categories, in GraphQL (kept importable from here for the module's own types).
import { CategoryEnum, SeverityEnum } from '../checks-catalog/graphql.js';

export { CategoryEnum, SeverityEnum };

export enum AuditStatusEnum {
  QUEUED = 'QUEUED',
  RUNNING = 'RUNNING',
  COMPLETED = 'COMPLETED',
  FAILED = 'FAILED',
  CANCELLED = 'CANCELLED',
}
registerEnumType(AuditStatusEnum, {
  name: 'AuditStatus',
  description: 'QUEUED -> RUNNING -> COMPLETED | FAILED; QUEUED | RUNNING -> CANCELLED.',
});

export enum AuditPhaseEnum {
  CRAWLING = 'CRAWLING',
  ANALYZING = 'ANALYZING',
  MEASURING = 'MEASURING',
  SAVING = 'SAVING',
}
registerEnumType(AuditPhaseEnum, {
  name: 'AuditPhase',
  description: 'CRAWLING -> ANALYZING (site checks) -> MEASURING (lab Core Web Vitals) -> SAVING (results written).',
});

@ObjectType('IssueCounts')
export class IssueCountsType {
  @Field(() => Int) critical!: number;
  @Field(() => Int) warning!: number;
  @Field(() => Int) notice!: number;
}

@ObjectType('Fix', { description: 'One fix of a fix-grouped issue: its cause and the pages it is on.' })
export class FixType {
  @Field(() => String, {
    description: 'The cause: a failing target URL, or an element a shared template repeats (its href and text).',
  })
  cause!: string;
  @Field(() => Int, { description: 'Its reach: the crawled pages it is on (that link to the target).' }) pages!: number;
}

@ObjectType('IssueFixes', {
  description:
    'A fix-grouped issue (a broken target linked from many pages is one fix; docs/scores.md "Fixes"): how many ' +
    'fixes, the widest with their reach, and the line every surface shows ("1 target, linked from 78 pages").',
})
export class IssueFixesType {
  @Field(() => Int, { description: 'Distinct fixes (targets or repeated elements).' }) count!: number;
  @Field(() => String, { description: 'The fixes in one line: "9 targets, the widest linked from 78 pages".' })
  summary!: string;
  @Field(() => [FixType], { description: 'The widest fixes first (at most 20 on an issue, 5 on a score cost).' })
  listed!: FixType[];
  @Field(() => Int, {
    nullable: true,
    description:
      "The places the fixes are in: fixes on the very same pages are one place (a template's list of dead links is " +
      'fixed in one place); null for audits stored before places were kept.',
  })
  places!: number | null;
}

@ObjectType('ScoreCost', { description: "One issue's part of an audit's score: the points it costs its category." })
export class ScoreCostType {
  @Field(() => String) code!: string;
  @Field(() => String, { description: "The check's title in the catalog." }) title!: string;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => String, {
    description:
      'page: costs by the share of pages affected; site: charged once for the site (a fixed cost, or for a fact ' +
      'of the server found on every page, half what its severity costs on those pages; docs/scores.md).',
  })
  scope!: string;
  @Field(() => Int) affectedPages!: number;
  @Field(() => Float, { description: 'Points off the category score (before rounding; a category stops at 0).' })
  points!: number;
  @Field(() => IssueFixesType, {
    nullable: true,
    description: 'A fix-grouped issue: charged fix by fix, each by its reach with a ceiling; null for other issues.',
  })
  fixes!: IssueFixesType | null;
}

@ObjectType('BlockerNotice', {
  description:
    'A site-wide blocker that capped the overall score at 50, with the sentence its banner shows (e.g. "0 indexable ' +
    'pages: every page is noindex. …").',
})
export class BlockerNoticeType {
  @Field(() => String, {
    description:
      'TECH_ROBOTS_BLOCKS_ALL, TECH_ROBOTS_UNREACHABLE, TECH_NOINDEX_SITEWIDE, NO_INDEXABLE_PAGES or ' +
      'START_URL_<status>.',
  })
  code!: string;
  @Field(() => String, { description: 'What blocks indexing, in a sentence.' }) message!: string;
}

@ObjectType('Indexability', { description: "The crawled 2xx HTML pages' indexability." })
export class IndexabilityType {
  @Field(() => Int, { description: 'Pages a search engine would index (not noindex, their own canonical).' })
  indexable!: number;
  @Field(() => Int, { description: 'Pages with noindex (meta robots or X-Robots-Tag).' }) noindex!: number;
  @Field(() => Int, { description: 'Pages naming a canonical URL on another host (and not noindex).' })
  canonicalOtherHost!: number;
  @Field(() => Int, { description: 'Pages naming another canonical URL on the same host (and not noindex).' })
  canonicalSameHost!: number;
}

@ObjectType('ScoreBreakdown', {
  description:
    'Why an audit scored what it did: overall = round(0.5 × health + 0.5 × the weighted categories), each category ' +
    '100 minus its costs (docs/scores.md has the formula).',
})
export class ScoreBreakdownType {
  @Field(() => Float, {
    description:
      '% of the crawled HTML pages without a CRITICAL issue, a page whose on-page basics are missing (shown worse in ' +
      'search: pagesShownWorse) counting 2/3.',
  })
  health!: number;
  @Field(() => Int, { description: 'Crawled HTML documents (link targets, PDFs and other resources are not pages).' })
  htmlPages!: number;
  @Field(() => Int) pagesWithCritical!: number;
  @Field(() => Int, {
    description:
      'Pages without a CRITICAL issue that a check marks as shown worse in search (two or more on-page basics ' +
      'missing): 2/3 of a healthy page each (0 for audits scored before it was counted).',
  })
  pagesShownWorse!: number;
  @Field(() => Int, { description: 'Checks that applied to the site (on any page, or once for the whole site).' })
  checksApplied!: number;
  @Field(() => Int, { description: 'Of those, the checks that passed everywhere.' }) checksPassed!: number;
  @Field(() => Int, {
    nullable: true,
    description: "Lighthouse's performance score from lab metrics, before the category's other costs; null without.",
  })
  labPerformance!: number | null;
  @Field(() => [ScoreCostType], {
    description:
      'Every failing check with what it costs, what it takes off the overall score first (its category points ' +
      "times the category's weight, plus the health a page-level CRITICAL issue takes), then the more severe.",
  })
  costs!: ScoreCostType[];
  @Field(() => Int, { nullable: true, description: 'The overall score before a site-wide blocker capped it at 50.' })
  cappedFrom!: number | null;
  @Field(() => [String], {
    description:
      'The site-wide blockers that fired (check codes, NO_INDEXABLE_PAGES when no crawled page is indexable, or ' +
      'START_URL_<status> when the start URL failed).',
  })
  blockers!: string[];
  @Field(() => [BlockerNoticeType], { description: 'The blockers as the banner says them (one sentence each).' })
  blockerNotices!: BlockerNoticeType[];
  @Field(() => IndexabilityType, {
    nullable: true,
    description:
      'The crawled 2xx HTML pages a search engine would index, and why the others not (0 indexable is the ' +
      'NO_INDEXABLE_PAGES blocker); null for audits scored before it was counted.',
  })
  indexability?: IndexabilityType | null;
  @Field(() => Int, {
    description:
      'Occurrences marked "won\'t fix" by the project and left out of the costs and health above (0 when none).',
  })
  wontFixExcluded!: number;
}

@ObjectType('PageInfo')
export class PageInfoType {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ObjectType('IssueOccurrence', { description: 'One page on which an issue was found, with its evidence.' })
export class IssueOccurrenceType {
  /** The audit and project it belongs to (its ranking keywords are looked up in them); not exposed. */
  auditId!: string;
  projectId!: string;
  /** Its issue's check code ("won't fix" markings are looked up by it); not exposed. */
  code!: string;
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => GraphQLJSON, { nullable: true, description: "The check's facts as JSON (shape per code)." })
  evidence!: unknown;
  @Field(() => EvidenceViewType, { nullable: true, description: 'The evidence as labelled facts and small tables.' })
  details!: EvidenceViewType | null;
}

@ObjectType('IssueOccurrenceConnection')
export class IssueOccurrenceConnection {
  @Field(() => [IssueOccurrenceType]) nodes!: IssueOccurrenceType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
}

/** The audit's HTML page count (null for audits scored before it was kept) and its project's ranking pages. */
export interface IssueRankingInputs {
  htmlPages: number | null;
  /** The points the audit's score charged each issue, by code (the breakdown's costs; empty before it completes). */
  costPoints: ReadonlyMap<string, number>;
  ranking: RankingPages;
}

@ObjectType('Issue', { description: 'One check that failed in an audit, with the pages it affects.' })
export class IssueType {
  @Field(() => ID) id!: string;
  auditId!: string;
  /** The audit's project (its ranking pages are looked up in it); not exposed. */
  projectId!: string;
  /**
   * What priority and rankingPages are computed from, when the list that holds this issue read it once for all of its
   * issues (IssueResolver); absent otherwise: those fields then read it themselves. Not exposed.
   */
  rankingInputs?: IssueRankingInputs;
  @Field(() => String, { description: 'Stable check code, e.g. META_DESCRIPTION_MISSING.' }) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => String) description!: string;
  @Field(() => Int, {
    description: "Distinct URLs it was found on (in the segment's URLs when the list is narrowed to a segment).",
  })
  affectedPages!: number;
  @Field(() => Int, { description: 'Pages the check applied to (site checks: 1).' }) applicablePages!: number;
  @Field(() => IssueFixesType, {
    nullable: true,
    description:
      "A fix-grouped issue's fixes in the whole audit (a broken target linked from 78 pages is one fix); null for " +
      'other issues and for audits stored before fixes were kept.',
  })
  fixes!: IssueFixesType | null;
  @Field(() => Int, {
    description:
      "Of affectedPages: failing URLs whose cost is charged once, as their broken links' fix " +
      '(LINKS_INTERNAL_BROKEN): listed here, costing nothing here (0 for other issues).',
  })
  chargedElsewhere!: number;
  @Field(() => Int, {
    nullable: true,
    description: "Its occurrences on the segment's URLs when the issues list is narrowed to a segment; null otherwise.",
  })
  segmentOccurrences?: number | null;
  @Field(() => String, {
    description:
      'page: a fact about each affected page (shown as its pages, "1,170 pages"); site: a fact about the site or its ' +
      'server, charged once and shown as "site" (its URLs are evidence, not a page count).',
  })
  scope!: string;
  /** Issue.priority is a field resolver (IssueResolver): it joins the audit's ranking pages. */
  @Field(() => String, { nullable: true, description: "Why the check matters for search (the catalog's guidance)." })
  whyItMatters!: string | null;
  @Field(() => String, { nullable: true, description: 'How to fix it, in general (a page-specific fix: suggestFix).' })
  howToFix!: string | null;
}

@ObjectType('CheckedOfFound', { description: 'What a cap left: how many of the things found were checked.' })
export class CheckedOfFoundType {
  @Field(() => Int, { description: 'Distinct ones found on the crawled pages (at least this many).' }) found!: number;
  @Field(() => Int, { description: 'Those that got a verdict (answered, or refused the connection).' })
  checked!: number;
}

@ObjectType('ExternalLinksChecked', {
  description:
    'External link targets: found, checked ("N of M external links checked"), not checked (refused by our URL ' +
    'policy, not sent past the per-address cap, or no answer) and never tried (over the cap of distinct URLs, ' +
    'the time for checks ran out, or no outside network).',
})
export class ExternalLinksCheckedType extends CheckedOfFoundType {
  @Field(() => Int, {
    description:
      'Not checked: our URL policy refused the fetch, the per-address cap held the request back, the host did not ' +
      'resolve, or no answer came in time.',
  })
  couldNotCheck!: number;
  @Field(() => Int, { description: 'Never tried: found - checked - couldNotCheck.' }) notTried!: number;
  @Field(() => Int, { description: 'Of couldNotCheck: refused by our URL policy (nothing was sent).' })
  refusedByPolicy!: number;
  @Field(() => Int, {
    description:
      "Of couldNotCheck: not sent, the audit's requests to that address reached the per-address cap " +
      '(LINK_CHECK_ADDRESS_CAP).',
  })
  addressCap!: number;
  @Field(() => Int, {
    description:
      'Of couldNotCheck: the host did not resolve, or no answer came in time (couldNotCheck - refusedByPolicy - ' +
      'addressCap).',
  })
  noAnswer!: number;
  @Field(() => Int, { description: 'Of notTried: over the cap of distinct external URLs per audit.' })
  overCap!: number;
  @Field(() => Int, { description: "Of notTried: the audit's time for external link checks ran out first." })
  outOfTime!: number;
  @Field(() => Int, {
    description:
      'Of notTried: not checked because the audit had no outside network (outside host names stopped resolving, ' +
      'several in a row, and the checks stopped): "no outside network: N external links not checked". Never broken ' +
      'links.',
  })
  noNetwork!: number;
  @Field(() => Int, { description: "Of checked: the project's verdict of the last day, reused without a request." })
  fromCache!: number;
  @Field(() => Int, {
    description:
      'Of notTried: still being checked when the audit became readable (pages, scores and issues complete without ' +
      "them; the checks that read other hosts' answers not yet evaluated). 0 once Audit.externalLinksFinal.",
  })
  pending!: number;
  @Field(() => Int, {
    description:
      "Of notTried: still being checked when the audit's worker stopped (a shutdown, a crash): no verdict, never " +
      "broken links, and the checks that read other hosts' answers were not evaluated.",
  })
  workerStopped!: number;
}

@ObjectType('LabPagesMeasured', { description: 'Pages whose lab vitals were measured, of the HTML pages (2xx).' })
export class LabPagesMeasuredType {
  @Field(() => Int) measured!: number;
  @Field(() => Int, { description: 'The HTML pages that answered 2xx: those lab vitals could have measured.' })
  eligible!: number;
}

@ObjectType('LinksRead', {
  description:
    "The links (<a>, <area>) of the audit's HTML pages: found, and read (followed, checked, in the link graph). A " +
    "page's links past the per-page cap (a guard against hostile pages) are not read: notRead, on pagesOverCap pages.",
})
export class LinksReadType {
  @Field(() => Int, { description: 'Links on the HTML pages, read or not.' }) found!: number;
  @Field(() => Int, { description: 'Those read: followed, checked, listed in the link graph.' }) read!: number;
  @Field(() => Int, { description: "found - read: links past their page's cap, not followed or checked." })
  notRead!: number;
  @Field(() => Int, { description: 'HTML pages with links past the per-page cap (their page view says how many).' })
  pagesOverCap!: number;
}

@ObjectType('AuditCounts', {
  description:
    "An audit's counts in one vocabulary, the same on every surface (app, PDF, CSV, CLI, REST): URLs crawled ⊇ HTML " +
    'pages ⊇ indexable pages, and what each cap left unchecked as N of M.',
})
export class AuditCountsType {
  @Field(() => Int, {
    description: 'Every URL the crawler fetched as a page candidate: HTML pages, files, redirects, errors, failures.',
  })
  urlsCrawled!: number;
  @Field(() => Int, { description: 'Crawled HTML documents (2xx): what scores, health and page counts are shares of.' })
  htmlPages!: number;
  @Field(() => Int, { description: 'HTML pages that are indexable (no noindex, canonical to themselves).' })
  indexablePages!: number;
  @Field(() => ExternalLinksCheckedType) externalLinks!: ExternalLinksCheckedType;
  @Field(() => CheckedOfFoundType, { description: "Subresources: found, and checked within the audit's budget." })
  resources!: CheckedOfFoundType;
  @Field(() => LabPagesMeasuredType) labPages!: LabPagesMeasuredType;
  @Field(() => LinksReadType, {
    nullable: true,
    description: "The pages' links: found, read, and not read past a page's cap; null for audits counted before.",
  })
  links!: LinksReadType | null;
}

@ObjectType('UncheckedLink', { description: 'An external link the audit could not check, and why.' })
export class UncheckedLinkType {
  @Field(() => String) url!: string;
  @Field(() => String) reason!: string;
}

/** The external link checks' progress (Audit and JobProgress): one wording. */
const EXTERNAL_CHECKED =
  'External links checked (answered, or from the recent checks of the project) of those found, while the audit ' +
  'waits for them after its last page (RUNNING, or COMPLETED and not externalLinksFinal); 0 until then. A final ' +
  'audit keeps the last figures written (counts.externalLinks holds the final ones).';
const EXTERNAL_FOUND =
  'Distinct external link targets found, whose checks the audit waits for after its last page; 0 until then.';
@ObjectType('Audit')
export class AuditType {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => ID) jobId!: string;
  @Field(() => AuditStatusEnum) status!: AuditStatusEnum;
  @Field(() => AuditPhaseEnum, { nullable: true, description: 'What a RUNNING audit is doing now; null otherwise.' })
  phase!: AuditPhaseEnum | null;
  @Field(() => Int, { nullable: true }) overallScore!: number | null;
  @Field(() => Int, { nullable: true }) metaScore!: number | null;
  @Field(() => Int, { nullable: true }) contentScore!: number | null;
  @Field(() => Int, { nullable: true }) linksScore!: number | null;
  @Field(() => Int, { nullable: true }) technicalScore!: number | null;
  @Field(() => Int, { nullable: true }) performanceScore!: number | null;
  @Field(() => Int) pagesCrawled!: number;
  @Field(() => Int) pagesQueued!: number;
  @Field(() => Int, { description: EXTERNAL_CHECKED }) externalLinksChecked!: number;
  @Field(() => Int, { description: EXTERNAL_FOUND }) externalLinksFound!: number;
  @Field(() => Boolean, {
    description:
      'False while a COMPLETED audit still waits for its external link checks: its pages, scores and issues are ' +
      "readable, the checks that read other hosts' answers (broken external links, canonicals, hreflang, AMP and " +
      'pagination targets on other sites) are not yet evaluated, and it is left out of comparisons and alerts; its ' +
      'scores and issues change once, when the verdicts fold in (externalLinksChecked of externalLinksFound so far). ' +
      'True otherwise.',
  })
  externalLinksFinal!: boolean;
  @Field(() => Int, {
    description:
      'Crawled pages that got no usable response (connection, DNS, TLS, refused address, timeout); the ' +
      'PAGE_FETCH_FAILED issue lists them.',
  })
  pagesFailed!: number;
  @Field(() => Int, {
    nullable: true,
    description:
      'URLs of the site the crawl found, crawled or not (at least this many); null until the audit completes, and ' +
      'for audits completed before it was counted.',
  })
  pagesDiscovered!: number | null;
  @Field(() => Boolean, {
    description:
      'The page cap (maxPages, from the plan or the project) stopped the crawl while URLs were left: the scores ' +
      'cover the pages crawled, not the whole site.',
  })
  truncated!: boolean;
  @Field(() => [UncheckedLinkType], {
    description:
      'External links the audit could not check (the host name did not resolve, no answer came in time, our URL ' +
      'policy refused the fetch, or the per-address request cap was reached): not broken links, and not scored.',
  })
  uncheckedLinks!: UncheckedLinkType[];
  @Field(() => AuditCountsType, {
    nullable: true,
    description: 'URLs crawled, HTML pages, indexable pages and the caps as N of M; null until the audit completes.',
  })
  counts!: AuditCountsType | null;
  @Field(() => Int, { description: 'The page cap of this audit.' }) maxPages!: number;
  @Field(() => String, {
    nullable: true,
    description: 'Why the audit FAILED (naming the URL and the cause), or why it was cancelled; null otherwise.',
  })
  error!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) startedAt!: Date | null;
  @Field(() => Date, { nullable: true }) completedAt!: Date | null;
}

@ObjectType('AuditConnection')
export class AuditConnection {
  @Field(() => [AuditType]) nodes!: AuditType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int) totalCount!: number;
}

@ObjectType('JobProgress')
export class JobProgressType {
  @Field(() => Int) pagesCrawled!: number;
  @Field(() => Int) pagesQueued!: number;
  @Field(() => Int, { description: EXTERNAL_CHECKED }) externalLinksChecked!: number;
  @Field(() => Int, { description: EXTERNAL_FOUND }) externalLinksFound!: number;
}

@ObjectType('Job', { description: 'A queued audit job; its state comes from the audit (the source of truth).' })
export class JobType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'queued, running, completed, failed or cancelled' }) state!: string;
  @Field(() => JobProgressType) progress!: JobProgressType;
  @Field(() => ID) auditId!: string;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType('StartAuditPayload')
export class StartAuditPayload {
  @Field(() => String) message!: string;
  @Field(() => ID) jobId!: string;
  @Field(() => ID) auditId!: string;
  @Field(() => Boolean, { description: 'false when an audit was already queued or running for the project' })
  created!: boolean;
  @Field(() => AuditType) audit!: AuditType;
}

export enum SortDirectionEnum {
  ASC = 'ASC',
  DESC = 'DESC',
}
registerEnumType(SortDirectionEnum, { name: 'SortDirection' });

export enum AuditPageOrderEnum {
  URL = 'URL',
  STATUS = 'STATUS',
  TITLE = 'TITLE',
  DEPTH = 'DEPTH',
  WORD_COUNT = 'WORD_COUNT',
  RESPONSE_TIME = 'RESPONSE_TIME',
  ISSUES = 'ISSUES',
}
registerEnumType(AuditPageOrderEnum, {
  name: 'AuditPageOrder',
  description:
    'Sort key of the pages explorer; ties are broken by the page id, pages without the value (no status, ' +
    'title or response time) come last.',
  valuesConfig: {
    STATUS: { description: 'HTTP status code.' },
    ISSUES: { description: 'Issue occurrences on the page.' },
  },
});

export enum StatusClassEnum {
  SUCCESS = 'SUCCESS',
  REDIRECT = 'REDIRECT',
  CLIENT_ERROR = 'CLIENT_ERROR',
  SERVER_ERROR = 'SERVER_ERROR',
  FAILED = 'FAILED',
}
registerEnumType(StatusClassEnum, {
  name: 'StatusClass',
  valuesConfig: {
    SUCCESS: { description: '2xx' },
    REDIRECT: { description: '3xx' },
    CLIENT_ERROR: { description: '4xx' },
    SERVER_ERROR: { description: '5xx' },
    FAILED: { description: 'No response (the fetch failed).' },
  },
});

export enum AuditPageKindEnum {
  HTML = 'HTML',
  REDIRECT = 'REDIRECT',
  ERROR = 'ERROR',
  FILE = 'FILE',
  FAILED = 'FAILED',
}
registerEnumType(AuditPageKindEnum, {
  name: 'AuditPageKind',
  description:
    'What a crawled URL turned out to be. Only HTML documents are pages (scored and counted as pages); the others ' +
    'are listed so that they can be looked at.',
  valuesConfig: {
    HTML: { description: 'An HTML document answered 2xx: a page.' },
    REDIRECT: { description: '3xx: the URL redirects (finalUrl is the target).' },
    ERROR: { description: '4xx or 5xx.' },
    FILE: { description: 'Another file answered 2xx (PDF, image, feed…).' },
    FAILED: { description: 'No usable response (see error).' },
  },
});

@InputType('AuditPageFilter', {
  description: 'All given conditions hold (AND); an absent or empty field does not filter.',
})
export class AuditPageFilterInput {
  @Field(() => [StatusClassEnum], { nullable: true, description: 'Any of these classes.' }) statusClass?:
    StatusClassEnum[] | null;
  @Field(() => [AuditPageKindEnum], { nullable: true, description: 'Any of these kinds (HTML: the pages).' }) kind?:
    AuditPageKindEnum[] | null;
  @Field(() => Boolean, { nullable: true }) hasIssues?: boolean | null;
  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive substring of the URL or the title (at most 200 characters).',
  })
  search?: string | null;
}

@ObjectType('AuditPage', { description: 'A crawled page of an audit.' })
export class AuditPageType {
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { nullable: true, description: 'Where redirects ended.' }) finalUrl!: string | null;
  @Field(() => Int, { nullable: true, description: 'null when the fetch failed (see error).' }) statusCode!:
    number | null;
  @Field(() => Int, { description: 'Link depth from the start URL; -1 for pages reached only through the sitemap.' })
  depth!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) metaDescription!: string | null;
  @Field(() => Int) wordCount!: number;
  @Field(() => Int, { nullable: true, description: 'Time to the first byte of the response, ms.' }) responseTimeMs!:
    number | null;
  @Field(() => Int) bytes!: number;
  @Field(() => Boolean) indexable!: boolean;
  @Field(() => Int, { description: INLINKS_DESCRIPTION })
  inlinks!: number;
  @Field(() => Int) outlinks!: number;
  @Field(() => String, { nullable: true, description: 'Why the fetch failed.' }) error!: string | null;
  @Field(() => Int, { description: 'Issue occurrences recorded for this URL in this audit.' }) issueCount!: number;
  @Field(() => AuditPageKindEnum, { nullable: true, description: 'null for audits crawled before kinds existed.' })
  kind!: AuditPageKindEnum | null;
}

@ObjectType('AuditPageConnection')
export class AuditPageConnection {
  @Field(() => [AuditPageType]) nodes!: AuditPageType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'Pages matching the filter (all pages, not this page of results).' })
  totalCount!: number;
}
