/**
 * JSON Schemas of the REST bodies, shared by the route table (Fastify validates requests and serializes
 * responses with them) and the OpenAPI documents. Each named schema below is a Fastify shared schema
 * (`app.addSchema`, `$id` = its name; SHARED_SCHEMAS) and the exported constant is a `$ref` to it, so
 * @fastify/swagger publishes it as `#/components/schemas/<name>`. Response schemas list exactly the fields
 * the API returns: Fastify's serializer drops anything else.
 */

import { ERROR_CODES } from '../../src/platform/errors.js';

type Schema = Record<string, unknown>;

/** The named schemas, in definition order (a schema only refers to ones defined before it). */
export const SHARED_SCHEMAS: (Schema & { $id: string })[] = [];
/** Publishes a schema under a name and returns a reference to it. */
const component = (name: string, schema: object): { readonly $ref: string } => {
  SHARED_SCHEMAS.push({ $id: name, ...schema });
  return { $ref: `${name}#` };
};

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const id = { type: 'string', description: 'Identifier.' } as const;
const dateTime = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC timestamp.' } as const;
const nullable = <T extends Schema>(schema: T) => ({ ...schema, type: [schema.type as string, 'null'] }) as const;
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties), extra: Schema = {}) =>
  ({ type: 'object', properties, required, ...extra }) as const;
const list = (items: unknown, extra: Schema = {}) => ({ type: 'array', items, ...extra }) as const;
/** Any JSON value (fields typed JSON in the GraphQL schema). */
const anyJson = {} as const;
const score = (what: string) =>
  ({
    type: ['integer', 'null'],
    minimum: 0,
    maximum: 100,
    description: `${what} (0-100); null until the audit is COMPLETED.`,
  }) as const;

/** A success body: an object with exactly these fields, all present. */
export const body = (properties: Record<string, unknown>, description?: string) =>
  obj(properties, undefined, description ? { description } : {});
export const arrayOf = (items: unknown, description?: string) => list(items, description ? { description } : {});

// ---------------------------------------------------------------- errors

export const ErrorDetail = component(
  'ErrorDetail',
  obj({ path: { type: 'string', description: 'The input field, dotted (e.g. `keywords.0`).' }, message: str }),
);

export const ErrorBody = component(
  'Error',
  obj(
    {
      error: { type: 'string', description: 'Human-readable message.' },
      code: {
        type: 'string',
        description:
          'Machine code: BAD_USER_INPUT (400), UNAUTHENTICATED (401), FORBIDDEN or PLAN_LIMIT (403), ' +
          'NOT_FOUND (404), ' +
          'METHOD_NOT_ALLOWED (405: the path exists, not with this method; `Allow` lists its methods), ' +
          ('REQUEST_TIMEOUT (408: the request was not received in time), PAYLOAD_TOO_LARGE (413), ' +
            'UNSUPPORTED_MEDIA_TYPE (415), ') +
          ('URI_TOO_LONG (431: request line and headers over 16 KB), RATE_LIMITED (429), INTERNAL (500), ' +
            'UNAVAILABLE (503, with Retry-After).'),
        // Every code of the vocabulary but QUERY_TOO_COMPLEX, which only /graphql sends.
        enum: ERROR_CODES.filter((code) => code !== 'QUERY_TOO_COMPLEX'),
        examples: ['NOT_FOUND'],
      },
      details: {
        ...list(ErrorDetail),
        description: 'Per-field problems: on every 400 (`body` for malformed or too deeply nested JSON).',
      },
      requestId: { type: 'string', description: 'On 500: the X-Request-Id to quote when reporting the failure.' },
    },
    ['error', 'code'],
    { examples: [{ error: 'Project not found', code: 'NOT_FOUND' }] },
  ),
);

export type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 415 | 429 | 500;

/** Error responses for the given statuses, all in the one error shape. */
export const errors = (...statuses: ErrorStatus[]): Record<number, typeof ErrorBody> =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

/** Statuses of authenticated reads and writes that address a resource by id. */
export const READ_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 429, 500];
export const WRITE_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 413, 415, 429, 500];

// ---------------------------------------------------------------- projects

export const ProjectCounts = component(
  'ProjectCounts',
  obj({ audits: int, keywords: int, competitors: int }, undefined, { description: 'Counters of the project.' }),
);

export const AuditSchedule = component(
  'AuditSchedule',
  obj(
    {
      frequency: { type: 'string', enum: ['OFF', 'DAILY', 'WEEKLY', 'MONTHLY'] },
      time: { type: 'string', description: 'Local time of day, HH:MM (24 h).', examples: ['09:00'] },
      timeZone: { type: 'string', description: 'IANA time zone name.', examples: ['Europe/Berlin'] },
      dayOfWeek: {
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 7,
        description: 'Day of a WEEKLY schedule: 1 = Monday ... 7 = Sunday.',
      },
      dayOfMonth: {
        type: ['integer', 'null'],
        minimum: 1,
        maximum: 31,
        description: 'Day of a MONTHLY schedule; in a shorter month, 29-31 run on its last day.',
      },
      nextRunAt: { ...nullable(dateTime), description: 'When the next scheduled audit starts; null when OFF.' },
    },
    undefined,
    {
      description:
        "Scheduled audits, at a local time in the schedule's time zone (a time a daylight-saving change skips " +
        'runs an hour later that day; one it repeats runs once). Additive to the contract.',
    },
  ),
);

export const ScheduledAuditRun = component(
  'ScheduledAuditRun',
  obj(
    {
      scheduledAt: { ...dateTime, description: 'The run time the schedule fired for.' },
      outcome: { type: 'string', enum: ['STARTED', 'SKIPPED'] },
      reason: {
        type: ['string', 'null'],
        enum: ['ALREADY_RUNNING', 'PLAN_LIMIT', 'NOT_ALLOWED', null],
        description: 'Why a SKIPPED run started no audit.',
      },
      message: { type: ['string', 'null'], description: 'The reason, for a person.' },
      auditId: {
        type: ['string', 'null'],
        description: 'The audit it started; for ALREADY_RUNNING, the audit that was running.',
      },
    },
    undefined,
    { description: 'One run time of the audit schedule, recorded once.' },
  ),
);

export const ProjectV1 = component(
  'ProjectV1',
  obj({
    id,
    name: str,
    domain: { type: 'string', description: 'Host name of the start URL.', examples: ['shop.example.com'] },
    createdAt: dateTime,
    _count: ProjectCounts,
    auditSchedule: AuditSchedule,
  }),
);

export const ProjectListItem = component(
  'ProjectListItem',
  obj({
    id,
    name: str,
    url: { type: 'string', description: 'Normalized start URL.', examples: ['https://shop.example.com/'] },
    lastAuditScore: {
      type: ['integer', 'null'],
      description: 'Overall score of the latest completed audit; null before one.',
    },
  }),
);

const projectFields = {
  id,
  name: str,
  url: { type: 'string', description: 'Normalized start URL.' },
  domain: { type: 'string', description: 'Host name of the start URL.' },
  createdAt: dateTime,
};
export const Project = component('Project', obj({ ...projectFields, auditSchedule: AuditSchedule }));

// ---------------------------------------------------------------- audits

const auditStatus = {
  type: 'string',
  enum: ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'],
  description: 'QUEUED -> RUNNING -> COMPLETED or FAILED; QUEUED or RUNNING -> CANCELLED.',
} as const;
const severity = { type: 'string', enum: ['CRITICAL', 'WARNING', 'NOTICE'] } as const;
const category = { type: 'string', enum: ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] } as const;

export const Issue = component(
  'Issue',
  obj({
    id,
    code: { type: 'string', description: 'Stable check code.', examples: ['META_DESCRIPTION_MISSING'] },
    title: str,
    severity,
    category,
    description: str,
    affectedPages: {
      type: 'integer',
      description: "Pages the issue was found on (of the audit's counts.htmlPages); a site-scope issue: its URLs.",
    },
    scope: {
      type: 'string',
      enum: ['page', 'site'],
      description:
        'page: shown as its affected pages; site: a fact about the site or its server, charged once and shown as ' +
        '"site". Additive to the contract.',
    },
    wontFixCount: {
      type: 'integer',
      description:
        'Of its occurrences, those the project marked "won\'t fix": left out of the score, still counted in ' +
        'affectedPages (docs/scores.md, "Won\'t fix"). Additive to the contract.',
    },
    fixes: {
      ...nullable(
        obj({
          count: { type: 'integer', description: 'Distinct fixes (failing targets or repeated elements).' },
          summary: {
            type: 'string',
            description: 'The fixes in one line.',
            examples: ['1 target, linked from 78 pages'],
          },
          listed: list(
            obj({
              cause: { type: 'string', description: 'A failing target URL, or a repeated element (href and text).' },
              pages: { type: 'integer', description: 'The crawled pages it is on.' },
            }),
            { description: 'The widest fixes first (at most 20).' },
          ),
          places: {
            ...nullable({ type: 'integer' }),
            description:
              "The places the fixes are in: fixes on the very same pages are one place (a template's list of dead " +
              'links); null for audits stored before places were kept.',
          },
        }),
      ),
      description:
        'A fix-grouped issue (a broken target linked from many pages is one fix, docs/scores.md "Fixes"): charged ' +
        'fix by fix; null for other issues. Additive to the contract.',
    },
    chargedElsewhere: {
      type: 'integer',
      description:
        "Of affectedPages: failing URLs charged once, as their broken links' fix (LINKS_INTERNAL_BROKEN), and " +
        'costing nothing here (0 for other issues). Additive to the contract.',
    },
  }),
);

const checkedOfFound = {
  found: { type: 'integer', description: 'Distinct ones found on the crawled pages (at least this many).' },
  checked: { type: 'integer', description: 'Those that got a verdict.' },
};

/** audit.counts: the counts every surface shows (docs/counts.md). */
const AuditCounts = component(
  'AuditCounts',
  obj(
    {
      urlsCrawled: {
        type: 'integer',
        description: 'Every URL fetched as a page candidate (HTML pages, files, redirects, errors, failures).',
      },
      htmlPages: { type: 'integer', description: 'Crawled HTML documents (2xx): what scores are shares of.' },
      indexablePages: { type: 'integer', description: 'HTML pages that are indexable.' },
      externalLinks: obj(
        {
          ...checkedOfFound,
          couldNotCheck: {
            type: 'integer',
            description:
              'Not checked: refused by our URL policy, not sent past the per-address cap, the host did not resolve, ' +
              'or no answer in time.',
          },
          notTried: { type: 'integer', description: 'Never tried: found - checked - couldNotCheck.' },
          refusedByPolicy: { type: 'integer', description: 'Of couldNotCheck: refused by our URL policy.' },
          addressCap: {
            type: 'integer',
            description:
              "Of couldNotCheck: not sent, the audit's requests to that address reached the per-address cap " +
              '(LINK_CHECK_ADDRESS_CAP).',
          },
          noAnswer: { type: 'integer', description: 'Of couldNotCheck: the host did not resolve or did not answer.' },
          overCap: { type: 'integer', description: 'Of notTried: over the cap of distinct external URLs per audit.' },
          outOfTime: { type: 'integer', description: "Of notTried: the audit's time for external checks ran out." },
          noNetwork: {
            type: 'integer',
            description:
              'Of notTried: not checked, the audit had no outside network (outside host names stopped resolving): ' +
              '"no outside network: N external links not checked". Never broken links.',
          },
          fromCache: { type: 'integer', description: "Of checked: the project's verdict of the last day, reused." },
          pending: {
            type: 'integer',
            description:
              'Of notTried: still being checked when the audit became readable (externalLinksFinal false); 0 once ' +
              'their verdicts folded in.',
          },
          workerStopped: {
            type: 'integer',
            description:
              "Of notTried: still being checked when the audit's worker stopped: no verdict, never broken links.",
          },
        },
        undefined,
        { description: 'External links checked N of M.' },
      ),
      resources: obj(checkedOfFound, undefined, { description: 'Subresources checked N of M.' }),
      labPages: obj(
        {
          measured: { type: 'integer', description: 'Pages whose lab vitals were measured.' },
          eligible: { type: 'integer', description: 'HTML pages that answered 2xx.' },
        },
        undefined,
        { description: 'Lab vitals measured on N of M pages.' },
      ),
      links: {
        anyOf: [
          obj(
            {
              found: { type: 'integer', description: 'Links (<a>, <area>) on the HTML pages, read or not.' },
              read: { type: 'integer', description: 'Those read: followed, checked, in the link graph.' },
              notRead: {
                type: 'integer',
                description: "found - read: links past their page's cap (a guard against hostile pages), not checked.",
              },
              pagesOverCap: { type: 'integer', description: 'HTML pages with links past the per-page cap.' },
            },
            undefined,
            { description: 'Links read N of M.' },
          ),
          { type: 'null' },
        ],
        description: 'null for audits completed before links were counted.',
      },
    },
    undefined,
    {
      description:
        'URLs crawled, HTML pages and indexable pages, and each cap as N of M, as every surface shows them. ' +
        'Additive to the contract.',
    },
  ),
);

const auditScores = {
  id,
  blockers: {
    type: 'array',
    items: obj(
      {
        code: {
          type: 'string',
          description:
            'TECH_ROBOTS_BLOCKS_ALL, TECH_ROBOTS_UNREACHABLE, TECH_NOINDEX_SITEWIDE, NO_INDEXABLE_PAGES or ' +
            'START_URL_<status>.',
          examples: ['NO_INDEXABLE_PAGES'],
        },
        message: {
          type: 'string',
          description: 'What blocks indexing, in the sentence the banner shows.',
          examples: [
            '0 indexable pages: every page is noindex. Search engines will index none of this site as audited; ' +
              'thin and duplicate content checks are not applicable (they judge indexable pages only).',
          ],
        },
      },
      undefined,
      { description: 'A site-wide blocker.' },
    ),
    description:
      'The site-wide blockers that capped the overall score at 50 (docs/scores.md), each with its banner sentence; ' +
      'empty when none, before the audit completes, and for audits scored before breakdowns were kept. Additive to ' +
      'the contract.',
  },
  overallScore: score('Overall score'),
  metaScore: score('Meta score'),
  contentScore: score('Content score'),
  linksScore: score('Links score'),
  technicalScore: score('Technical score'),
  performanceScore: score('Performance score'),
  pagesCrawled: int,
  pagesFailed: {
    type: 'integer',
    description:
      'Crawled pages that got no usable response (connection, DNS, TLS, refused address, timeout); the ' +
      'PAGE_FETCH_FAILED issue lists them.',
  },
  pagesDiscovered: {
    type: ['integer', 'null'],
    description:
      'URLs of the site the crawl found, crawled or not (at least this many); null until the audit completes, and ' +
      'for audits completed before it was counted. Additive to the contract.',
  },
  truncated: {
    type: 'boolean',
    description:
      "The page cap (the plan's or the project's maxPages) stopped the crawl while URLs were left: the scores " +
      'cover the pages crawled. Additive to the contract.',
  },
  externalLinksFinal: {
    type: 'boolean',
    description:
      'False while a COMPLETED audit still waits for its external link checks: its pages, scores and issues are ' +
      "readable, the checks that read other hosts' answers (broken external links; canonicals, hreflang, AMP and " +
      'pagination targets on other sites) are not yet evaluated, and it is left out of comparisons and alerts. Its ' +
      'scores and issues change once, when the verdicts fold in. True otherwise. Additive to the contract.',
  },
  externalLinksChecked: {
    type: 'integer',
    description:
      'External links checked so far, of externalLinksFound, while the audit waits for them after its last page ' +
      '("external links: 1,200 of 1,675 checked"); a final audit keeps the last figures (counts hold the final ones).',
  },
  externalLinksFound: {
    type: 'integer',
    description: 'Distinct external link targets whose checks the audit waits for.',
  },
  counts: {
    anyOf: [AuditCounts, { type: 'null' }],
    description: 'null until the audit completes, and for audits completed before counts were kept.',
  },
  status: auditStatus,
  error: {
    type: ['string', 'null'],
    description:
      'Why the audit FAILED, naming the URL and the cause (e.g. "Could not connect to https://shop.example/: ' +
      'connection refused"), or why it was cancelled; ' +
      'null otherwise. A FAILED audit has no scores.',
  },
};

export const Audit = component(
  'Audit',
  obj({ ...auditScores, issues: { ...list(Issue), description: 'Most severe first.' } }),
);

export const IssueCounts = component('IssueCounts', obj({ critical: int, warning: int, notice: int }));

export const AuditSummary = component(
  'AuditSummary',
  obj({ ...auditScores, issueCounts: IssueCounts }, undefined, {
    description: 'An audit without its issues, with issue counts by severity.',
  }),
);

export const ProjectDetail = component(
  'ProjectDetail',
  obj({
    ...projectFields,
    _count: ProjectCounts,
    latestAudit: {
      anyOf: [AuditSummary, { type: 'null' }],
      description: 'The latest audit of any status; null before the first one.',
    },
    auditSchedule: AuditSchedule,
    scheduledRuns: {
      ...list(ScheduledAuditRun),
      description: 'The latest 10 run times of the schedule, latest first.',
    },
  }),
);

export const AuditStarted = component(
  'AuditStarted',
  obj({
    message: { type: 'string', examples: ['Audit queued'] },
    jobId: { type: 'string', description: 'Poll GET .../jobs/{jobId} for progress.' },
    auditId: str,
  }),
);

export const AuditState = component(
  'AuditState',
  obj(auditScores, undefined, { description: 'An audit without its issues.' }),
);

export const AuditCancelled = component(
  'AuditCancelled',
  obj(
    {
      message: { type: 'string', examples: ['Audit cancelled'] },
      audit: AuditState,
    },
    undefined,
    {
      description:
        'The audit, now CANCELLED; its crawl stops within a second and the pages crawled so far are kept. An ' +
        'audit already cancelled is returned as it is; ' +
        ('one that already completed or failed is refused with 400, and a project without a queued or running ' +
          'audit (and no auditId) is 404.'),
    },
  ),
);

export const Job = component(
  'Job',
  obj({
    id: str,
    state: { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    progress: obj({
      pagesCrawled: int,
      pagesQueued: int,
      externalLinksChecked: {
        ...int,
        description:
          'External links checked (answered, or from the recent checks of the project) of those found, while the ' +
          'audit waits for them after its last page; 0 until then.',
      },
      externalLinksFound: {
        ...int,
        description: 'Distinct external link targets found, checked after the last page; 0 until then.',
      },
    }),
    auditId: str,
    error: { type: ['string', 'null'], description: 'Why the audit failed; null otherwise.' },
  }),
);

export const FixSuggestion = component(
  'FixSuggestion',
  obj(
    {
      id,
      issueId: str,
      url: { type: 'string', description: 'The page the suggestion is for.' },
      summary: str,
      steps: list(str),
      code: { type: 'string', description: 'A snippet to paste (HTML, server configuration, ...), when there is one.' },
      source: {
        type: 'string',
        enum: ['LLM', 'RULES'],
        description: 'LLM: a language model wrote it; RULES: the deterministic rules engine.',
      },
      model: { type: 'string', description: 'The language model, when source is LLM.' },
    },
    ['id', 'issueId', 'url', 'summary', 'steps', 'source'],
  ),
);

// ---------------------------------------------------------------- keywords, competitors

export const Keyword = component(
  'Keyword',
  obj({
    id,
    term: { type: 'string', examples: ['oak dining table'] },
    position: {
      type: ['integer', 'null'],
      description: 'Latest position; null before the first check or when not within the checked depth.',
    },
    url: { type: ['string', 'null'], description: 'The ranking page of the project.' },
    lastChecked: { ...nullable(dateTime), description: 'Time of the latest successful check.' },
    lastCheck: {
      ...nullable(
        obj(
          {
            status: {
              type: 'string',
              enum: ['OK', 'FAILED'],
              description:
                'OK: the provider answered (position may still be null); FAILED: no position could be checked.',
            },
            checkedAt: dateTime,
            error: {
              type: ['string', 'null'],
              description: 'Why the check failed (provider error, no provider configured); null when OK.',
            },
          },
          ['status', 'checkedAt', 'error'],
        ),
      ),
      description: 'The latest check, successful or not; null before the first check.',
    },
  }),
);

export const RankingPoint = component(
  'RankingPoint',
  obj({ position: { type: ['integer', 'null'] }, url: { type: ['string', 'null'] }, checkedAt: dateTime }),
);

export const KeywordRankings = component(
  'KeywordRankings',
  obj({ keywordId: str, term: str, history: { ...list(RankingPoint), description: 'Oldest first.' } }),
);

export const CannibalisingUrl = component(
  'CannibalisingUrl',
  obj({
    url: str,
    bestPosition: { ...int, description: 'Its best position within the window.' },
    latestPosition: {
      type: ['integer', 'null'],
      description: "At the keyword's latest check; null: not ranking then.",
    },
    positions: { ...list(obj({ checkedAt: dateTime, position: int })), description: 'Oldest first.' },
  }),
);

export const KeywordCannibalisation = component(
  'KeywordCannibalisation',
  obj({
    keywordId: str,
    term: str,
    country: str,
    language: str,
    device: str,
    checks: { ...int, description: 'Successful checks within the window.' },
    maxUrlsAtOneCheck: { ...int, description: 'The most site URLs that ranked at one check.' },
    latestUrls: { ...int, description: 'Site URLs that ranked at the latest check.' },
    latestCheckedAt: dateTime,
    urls: { ...list(CannibalisingUrl), description: 'Distinct site URLs, best latest position first.' },
  }),
);

export const Competitor = component(
  'Competitor',
  obj({
    id,
    domain: { type: 'string', description: 'Host name (www. removed).' },
    createdAt: dateTime,
    overallScore: { type: ['integer', 'null'], description: 'Overall score of its homepage analysis.' },
    keywordsInTop10: { type: 'integer', description: 'Project keywords for which the competitor ranks in the top 10.' },
    averagePosition: { type: ['number', 'null'], description: 'Mean position over the keywords where it ranks.' },
    lastChecked: nullable(dateTime),
  }),
);

// ---------------------------------------------------------------- reports, technical

export const ReportScores = component(
  'ReportScores',
  obj({
    overall: { type: ['integer', 'null'] },
    meta: { type: ['integer', 'null'] },
    content: { type: ['integer', 'null'] },
    links: { type: ['integer', 'null'] },
    technical: { type: ['integer', 'null'] },
    performance: { type: ['integer', 'null'] },
  }),
);

export const ReportOccurrence = component(
  'ReportOccurrence',
  obj({
    code: str,
    title: str,
    severity: str,
    category: str,
    url: str,
    evidence: { ...anyJson, description: 'What was found (JSON), or null.' },
  }),
);

export const Report = component(
  'Report',
  obj(
    {
      auditId: str,
      status: { type: 'string', description: 'The audit status.' },
      createdAt: dateTime,
      completedAt: nullable(dateTime),
      scores: ReportScores,
      pagesCrawled: int,
      issueCounts: IssueCounts,
      exports: obj(
        { json: { type: 'string', format: 'uri-reference' }, csv: { type: 'string', format: 'uri-reference' } },
        undefined,
        { description: "Links to this audit's issue occurrences." },
      ),
      occurrences: {
        ...list(ReportOccurrence),
        description: 'Only with `auditId`: every issue occurrence of the audit.',
      },
    },
    ['auditId', 'status', 'createdAt', 'completedAt', 'scores', 'pagesCrawled', 'issueCounts', 'exports'],
  ),
);

export const SiteTechnicalFacts = component(
  'SiteTechnicalFacts',
  obj({
    https: { type: ['boolean', 'null'] },
    hsts: { type: ['boolean', 'null'] },
    httpVersion: { type: ['string', 'null'] },
    compression: {
      type: ['string', 'null'],
      description: 'Content-Encoding of the start page (gzip, br, zstd) or null.',
    },
    robotsTxt: { type: ['string', 'null'], description: 'HTTP status of /robots.txt, or "unreachable".' },
    sitemap: { type: ['string', 'null'], description: 'valid, invalid or missing.' },
  }),
);

export const CoreWebVitals = component(
  'CoreWebVitals',
  obj(
    {
      url: str,
      measuredAt: dateTime,
      device: str,
      source: { type: 'string', description: 'LAB (Chromium) or HTTP (no browser: TTFB only).' },
      lcpMs: { type: ['number', 'null'] },
      cls: { type: ['number', 'null'] },
      inpMs: { type: ['number', 'null'] },
      tbtMs: { type: ['number', 'null'] },
      fcpMs: { type: ['number', 'null'] },
      ttfbMs: { type: ['number', 'null'] },
      performanceScore: { type: ['integer', 'null'] },
    },
    undefined,
    { description: 'One measurement of a page.' },
  ),
);

export const Technical = component(
  'Technical',
  obj({
    site: {
      anyOf: [SiteTechnicalFacts, { type: 'null' }],
      description: 'Facts from the latest audit; null before the first completed audit.',
    },
    coreWebVitals: { ...list(CoreWebVitals), description: 'Oldest first.' },
  }),
);

// ---------------------------------------------------------------- free tools

export const ToolIssue = component('ToolIssue', obj({ code: str, title: str, severity: str, category: str }));
export const LineMessage = component(
  'LineMessage',
  obj({ line: { type: ['integer', 'null'] }, message: str }, ['message']),
);
const lineMessages = list(LineMessage);

export const MetaTagsReport = component(
  'MetaTagsReport',
  obj({
    url: str,
    title: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    canonical: { type: ['string', 'null'] },
    robots: { type: ['string', 'null'] },
    viewport: { type: ['string', 'null'] },
    lang: { type: ['string', 'null'] },
    charset: { type: ['string', 'null'] },
    openGraph: {
      type: 'object',
      additionalProperties: true,
      description: 'og:* properties by name.',
      examples: [{ 'og:title': 'Oak tables' }],
    },
    twitter: { type: 'object', additionalProperties: true, description: 'twitter:* names by name.' },
    hreflang: list(obj({ lang: str, href: str })),
    jsonLd: { type: 'array', items: anyJson, description: 'Parsed JSON-LD blocks.' },
    issues: list(ToolIssue),
  }),
);

export const RobotsRule = component(
  'RobotsRule',
  obj({ type: { type: 'string', enum: ['allow', 'disallow'] }, path: str, line: int }),
);

export const RobotsReport = component(
  'RobotsReport',
  obj({
    valid: bool,
    source: { type: 'string', description: '"content" or the URL the file was fetched from.' },
    sizeBytes: int,
    groups: list(obj({ userAgents: list(str), rules: list(RobotsRule) })),
    sitemaps: list(str),
    errors: lineMessages,
    warnings: lineMessages,
    tests: list(
      obj({ url: str, userAgent: str, allowed: bool, matchedRule: { anyOf: [RobotsRule, { type: 'null' }] } }),
    ),
  }),
);

export const HeadersReport = component(
  'HeadersReport',
  obj({
    url: str,
    finalUrl: str,
    status: int,
    redirects: list(obj({ url: str, status: int })),
    httpVersion: str,
    headers: {
      type: 'object',
      additionalProperties: true,
      description: 'Lower-cased names; repeated headers as arrays.',
      examples: [{ 'content-type': 'text/html; charset=utf-8', 'set-cookie': ['a=1', 'b=2'] }],
    },
    checks: list(obj({ name: str, passed: bool, value: { type: ['string', 'null'] }, message: str })),
    issues: list(ToolIssue),
  }),
);

export const SitemapReport = component(
  'SitemapReport',
  obj(
    {
      valid: bool,
      type: { type: ['string', 'null'], enum: ['urlset', 'sitemapindex', null] },
      urlCount: int,
      sitemaps: {
        ...list(
          obj({
            loc: str,
            lastmod: { type: ['string', 'null'] },
            valid: { type: ['boolean', 'null'], description: 'null when not fetched (over the bound) or unreachable.' },
            urlCount: { type: ['integer', 'null'] },
            errorCount: { type: ['integer', 'null'] },
            fetchError: { type: ['string', 'null'] },
          }),
        ),
        description: 'Sitemap indexes only: the listed sitemaps, fetched and validated within a bound.',
      },
      errors: lineMessages,
      warnings: lineMessages,
      sample: list(
        obj({
          loc: str,
          lastmod: { type: ['string', 'null'] },
          changefreq: { type: ['string', 'null'] },
          priority: { type: ['number', 'null'] },
        }),
      ),
    },
    ['valid', 'type', 'urlCount', 'errors', 'warnings', 'sample'],
  ),
);

// ---------------------------------------------------------------- audit comparison

const scoreCategory = { type: 'string', enum: ['OVERALL', 'META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] };
const pageChange = { type: 'string', enum: ['ADDED', 'REMOVED', 'STATUS_CHANGED', 'INDEXABILITY_CHANGED'] };
const severityOrOff = {
  type: ['string', 'null'],
  enum: ['CRITICAL', 'WARNING', 'NOTICE', null],
  description: 'Null: the check was off.',
};
const comparedPage = nullable(
  obj({ statusCode: { type: ['integer', 'null'], description: 'Null: no response.' }, indexable: bool }),
);

export const AuditComparison = component(
  'AuditComparison',
  obj(
    {
      settingsChanged: {
        type: 'boolean',
        description:
          'True when the audits were scored with different check settings: each delta then compares the audits ' +
          'under the checks both ran (null when that cannot be recomputed exactly), and the occurrences of a check ' +
          'switched off are notChecked, not fixed.',
      },
      settingChanges: list(
        obj({
          code: str,
          title: str,
          change: { type: 'string', enum: ['DISABLED', 'ENABLED', 'SEVERITY'] },
          severityBefore: severityOrOff,
          severityAfter: severityOrOff,
          description: { type: 'string', description: 'In words: "Page served over HTTP (TECH_HTTP_PAGE) disabled".' },
        }),
        { description: 'How the check settings differ, in code order; empty when both were scored alike.' },
      ),
      base: { ...obj({ ...auditScores, completedAt: nullable(dateTime) }), description: 'The earlier audit.' },
      head: { ...obj({ ...auditScores, completedAt: nullable(dateTime) }), description: 'The later audit.' },
      scores: list(
        obj({
          category: scoreCategory,
          before: { type: ['integer', 'null'] },
          after: { type: ['integer', 'null'] },
          comparableBefore: {
            type: ['integer', 'null'],
            description: 'before, scored again without the checks head did not run; null when not exact.',
          },
          comparableAfter: {
            type: ['integer', 'null'],
            description: 'after, scored again without the checks base did not run; null when not exact.',
          },
          delta: {
            type: ['integer', 'null'],
            description:
              'comparableAfter - comparableBefore (after - before when both ran the same checks): never a ' +
              'settings change; null when either is missing.',
          },
        }),
        { description: 'Overall, then each category.' },
      ),
      totals: obj({
        newIssues: {
          type: 'integer',
          description: 'Occurrences (a check code on a URL; a site fact once, for the site) found by head only.',
        },
        fixedIssues: {
          type: 'integer',
          description: 'Occurrences found by base only, on a page head still crawled, answering and indexable.',
        },
        goneIssues: {
          type: 'integer',
          description: 'Occurrences found by base only whose page is gone: not crawled, 4xx/5xx, not indexable.',
        },
        notCheckedIssues: { type: 'integer', description: 'Occurrences found by base of checks head did not run.' },
        newlyCheckedIssues: { type: 'integer', description: 'Occurrences found by head of checks base did not run.' },
        persistingIssues: { type: 'integer', description: 'Occurrences found by both.' },
        changedUrls: { type: 'integer', description: 'Changed URLs, each once: the rows of pages.' },
        added: { type: 'integer', description: 'URLs crawled by head only.' },
        removed: { type: 'integer', description: 'URLs crawled by base only.' },
        statusChanged: { type: 'integer', description: 'URLs crawled by both with another HTTP status.' },
        indexabilityChanged: { type: 'integer', description: 'URLs indexable in one audit and not the other.' },
      }),
      codes: list(
        obj({
          code: str,
          title: str,
          severity: { type: 'string', enum: ['CRITICAL', 'WARNING', 'NOTICE'] },
          category: str,
          siteFact: {
            type: 'boolean',
            description:
              'A fact of the site or its server (compression, caching headers, http, insecure cookies): compared ' +
              'once for the site, whatever URLs show it, so each of its counts is 0 or 1.',
          },
          newUrls: int,
          fixedUrls: int,
          goneUrls: int,
          notCheckedUrls: int,
          newlyCheckedUrls: int,
          persistingUrls: int,
        }),
        { description: 'Per check code found by either audit: most severe first, then the most new URLs.' },
      ),
      pages: obj(
        {
          totalCount: { type: 'integer', description: 'Changed URLs in all (the CSV with rows=pages lists them).' },
          nodes: list(obj({ url: str, changes: list(pageChange), before: comparedPage, after: comparedPage }), {
            description: 'The first 100 changed URLs, in URL order.',
          }),
        },
        undefined,
        { description: 'URLs added, removed, or changed in status or indexability.' },
      ),
    },
    undefined,
    { description: 'What changed between two completed audits of a project (base: earlier, head: later).' },
  ),
);

// ---------------------------------------------------------------- the check catalog (public)

export const CheckDefinition = component(
  'CheckDefinition',
  obj(
    {
      code: { type: 'string', examples: ['META_TITLE_MISSING'], description: 'Stable check code.' },
      title: str,
      category: { type: 'string', enum: ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] },
      severity: {
        type: 'string',
        enum: ['CRITICAL', 'WARNING', 'NOTICE'],
        description: "The catalog's severity (a project may override it).",
      },
      scope: {
        type: 'string',
        enum: ['page', 'site'],
        description: 'Charged per crawled page, or once per audit (site-level checks and server facts).',
      },
      description: { type: 'string', description: 'The rule, in one sentence.' },
      why: { type: 'string', description: 'Why it matters for search.' },
      fix: { type: 'string', description: 'How to fix it.' },
      banded: { type: 'boolean', description: 'Severity follows the measured value (not overridable).' },
      requires: {
        type: 'string',
        enum: ['NONE', 'LAB_BROWSER', 'RENDERING_MODE'],
        description: 'LAB_BROWSER: lab measurement in Chromium; RENDERING_MODE: browser rendering mode.',
      },
      needsBrowser: { type: 'boolean', description: 'requires is not NONE.' },
      blocker: { type: 'boolean', description: 'A failure caps the overall score.' },
      scoring: { type: 'string', description: 'How a failure counts in the audit scores.' },
    },
    undefined,
    { description: 'One check of the audit catalog; also shown at /checks/{code} in the web app.' },
  ),
);

// ---------------------------------------------------------------- response headers (OpenAPI only)

export const HEADERS = {
  'X-Request-Id': {
    description: 'Request id (echoed when the request sent a valid one); quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description:
      'Requests allowed in the current one-minute window (per organization and surface, or per client IP ' +
      'when unauthenticated). ' +
      'Absent when the request was refused before it was counted: 401, 413, 415 and invalid input.',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  Allow: { description: 'The methods the path accepts (on 405).', schema: { type: 'string', examples: ['GET, HEAD'] } },
  'Content-Disposition': { description: 'CSV exports: `attachment; filename="..."`.', schema: { type: 'string' } },
} as const;
