import type {
  AuditAlertFacts,
  CategoryScores,
  IssueSeverityName,
  KeywordCannibalisedFact,
  KeywordMoveFact,
  NewIssueFact,
  PageRegressionFact,
  RankAlertFacts,
  SegmentAlertFacts,
  VitalPoorFact,
} from './alert-facts.js';

/**
 * Alert rules and their evaluation: a pure function of rules × facts → alerts (no I/O), unit-tested with tables.
 * The worker feeds it the facts of a finished audit or rank check and records, delivers and mails what it returns.
 */

export const ALERT_RULE_KINDS = [
  'SCORE_DROP',
  'NEW_ISSUES',
  'PAGE_REGRESSION',
  'KEYWORD_DROP',
  'KEYWORD_LEFT_TOP10',
  'VITAL_POOR',
  'KEYWORD_CANNIBALISED',
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

export const SCORE_CATEGORIES = ['OVERALL', 'META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] as const;
export type AlertScoreCategory = (typeof SCORE_CATEGORIES)[number];

export const ALERT_SEVERITIES = ['CRITICAL', 'WARNING', 'NOTICE'] as const;
export const ALERT_CHANNELS = ['WEBHOOK', 'EMAIL'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** Rules evaluated when an audit completes; the others when a rank check finishes. */
export const AUDIT_RULE_KINDS: readonly AlertRuleKind[] = ['SCORE_DROP', 'NEW_ISSUES', 'PAGE_REGRESSION', 'VITAL_POOR'];
export const RANK_RULE_KINDS: readonly AlertRuleKind[] = ['KEYWORD_DROP', 'KEYWORD_LEFT_TOP10', 'KEYWORD_CANNIBALISED'];
/** Rules that may watch one segment of the project. */
export const SEGMENT_RULE_KINDS: readonly AlertRuleKind[] = ['SCORE_DROP', 'NEW_ISSUES'];

export interface AlertRule {
  id: string;
  projectId: string;
  kind: AlertRuleKind;
  /** SCORE_DROP: the score watched. */
  category: AlertScoreCategory | null;
  /** SCORE_DROP: the smallest drop, in points, that raises an alert. */
  points: number | null;
  /** NEW_ISSUES: the least severe new issue that counts. */
  minSeverity: IssueSeverityName | null;
  /** KEYWORD_DROP: the smallest drop, in positions, that raises an alert. */
  positions: number | null;
  /** SCORE_DROP, NEW_ISSUES: the project's segment watched (its figures, not the whole site's); null: the site. */
  segmentId: string | null;
  /** The watched segment's name (read with the rule). */
  segmentName: string | null;
  enabled: boolean;
  channels: AlertChannel[];
  createdAt: Date;
  updatedAt: Date;
}

/** What a raised alert carries beyond its title, by kind (the webhook payload's `alert.details`). */
export type AlertDetails =
  | {
      kind: 'SCORE_DROP';
      auditId: string;
      baseAuditId: string | null;
      category: AlertScoreCategory;
      before: number;
      after: number;
      drop: number;
      /** The segment the rule watches (its scores), or null for the whole site. */
      segment: { id: string; name: string } | null;
    }
  | {
      kind: 'NEW_ISSUES';
      auditId: string;
      baseAuditId: string | null;
      issues: NewIssueFact[];
      /** The segment the rule watches (issues new on its URLs), or null for the whole site. */
      segment: { id: string; name: string } | null;
    }
  | {
      kind: 'PAGE_REGRESSION';
      auditId: string;
      baseAuditId: string | null;
      pages: (PageRegressionFact & { change: 'STATUS' | 'NOINDEX' })[];
    }
  | { kind: 'VITAL_POOR'; auditId: string; baseAuditId: string | null; vitals: VitalPoorFact[] }
  | { kind: 'KEYWORD_DROP'; keywords: (KeywordMoveFact & { drop: number | null })[] }
  | { kind: 'KEYWORD_LEFT_TOP10'; keywords: KeywordMoveFact[] }
  | { kind: 'KEYWORD_CANNIBALISED'; keywords: KeywordCannibalisedFact[] };

/** An alert a rule raised: recorded once per rule and subject, then sent through the rule's channels. */
export interface AlertDraft {
  ruleId: string;
  projectId: string;
  kind: AlertRuleKind;
  channels: AlertChannel[];
  /** One line: what happened. */
  title: string;
  /** A few lines a person reads in an e-mail or a chat message. */
  lines: string[];
  details: AlertDetails;
}

const SEVERITY_RANK: Record<IssueSeverityName, number> = { CRITICAL: 3, WARNING: 2, NOTICE: 1 };
const SCORE_KEY: Record<AlertScoreCategory, keyof CategoryScores> = {
  OVERALL: 'overall',
  META: 'meta',
  CONTENT: 'content',
  LINKS: 'links',
  TECHNICAL: 'technical',
  PERFORMANCE: 'performance',
};
export const CATEGORY_LABEL: Record<AlertScoreCategory, string> = {
  OVERALL: 'Overall',
  META: 'Meta',
  CONTENT: 'Content',
  LINKS: 'Links',
  TECHNICAL: 'Technical',
  PERFORMANCE: 'Performance',
};
/** Items an alert lists by name in its lines; the details keep them all. */
const LISTED = 5;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const position = (p: number | null) => (p === null ? 'not ranking' : `#${p}`);
const status = (s: number | null) => (s === null ? 'no answer' : `HTTP ${s}`);
const more = (shown: number, total: number) => (total > shown ? [`…and ${total - shown} more`] : []);
const active = (rules: readonly AlertRule[], kinds: readonly AlertRuleKind[]) =>
  rules.filter((r) => r.enabled && r.channels.length > 0 && kinds.includes(r.kind));

/** A page that answered 200 and now answers 4xx/5xx, or was indexable and now is not (a noindex, a canonical…). */
function regressionOf(p: PageRegressionFact): 'STATUS' | 'NOINDEX' | null {
  const after = p.after.statusCode;
  if (p.before.statusCode === 200 && after !== null && after >= 400 && after <= 599) return 'STATUS';
  if (p.before.indexable && !p.after.indexable && after !== null && after >= 200 && after < 300) return 'NOINDEX';
  return null;
}

/**
 * What a rule is evaluated on: the whole audit's scores and new issues, or those of the segment it watches (null when
 * the facts do not have that segment: nothing to say about it).
 */
function watched(
  rule: AlertRule,
  facts: AuditAlertFacts,
): { scores: AuditAlertFacts['scores']; newIssues: NewIssueFact[]; segment: SegmentAlertFacts | null } | null {
  if (!rule.segmentId) return { scores: facts.scores, newIssues: facts.newIssues, segment: null };
  const segment = facts.segments?.find((s) => s.segmentId === rule.segmentId);
  return segment ? { scores: segment.scores, newIssues: segment.newIssues, segment } : null;
}

const segmentRef = (s: SegmentAlertFacts | null) => (s ? { id: s.segmentId, name: s.name } : null);
/** "Segment “Blog”: " before a title about a segment. */
const inSegment = (s: SegmentAlertFacts | null) => (s ? `Segment “${s.name}”: ` : '');

function scoreDrop(rule: AlertRule, facts: AuditAlertFacts): AlertDraft | null {
  const on = watched(rule, facts);
  if (!rule.category || !rule.points || !on?.scores.before) return null;
  // Scores of audits scored with different check settings do not compare: a settings change alone is no drop.
  if (facts.settingChanges.length) return null;
  const key = SCORE_KEY[rule.category];
  const before = on.scores.before[key];
  const after = on.scores.after[key];
  if (before === null || after === null || before - after < rule.points) return null;
  const label = CATEGORY_LABEL[rule.category];
  const drop = before - after;
  const of = on.segment ? `of the segment “${on.segment.name}” (its URLs only) in` : 'of';
  return draft(
    rule,
    `${inSegment(on.segment)}${label} score dropped ${plural(drop, 'point')} (${before} → ${after})`,
    [
      `The ${label.toLowerCase()} score ${of} the latest audit is ${after}, down from ${before} in the previous ` +
        `one (this rule alerts on drops of ${plural(rule.points, 'point')} or more).`,
      ...(facts.scoresBeforeWontFix || on.segment
        ? ['Both scores are as the audits scored before issues were marked "won\'t fix": a marking is no drop.']
        : []),
    ],
    {
      kind: 'SCORE_DROP',
      auditId: facts.auditId,
      baseAuditId: facts.baseAuditId,
      category: rule.category,
      before,
      after,
      drop,
      segment: segmentRef(on.segment),
    },
  );
}

function newIssues(rule: AlertRule, facts: AuditAlertFacts): AlertDraft | null {
  const on = watched(rule, facts);
  if (!on) return null;
  const min = SEVERITY_RANK[rule.minSeverity ?? 'CRITICAL'];
  const issues = on.newIssues
    .filter((i) => SEVERITY_RANK[i.severity] >= min)
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.urls - a.urls);
  if (!issues.length) return null;
  const pages = issues.reduce((n, i) => n + i.urls, 0);
  return draft(
    rule,
    `${inSegment(on.segment)}${plural(issues.length, 'new issue')} since the previous audit`,
    [
      ...issues.slice(0, LISTED).map((i) => `${i.severity}: ${i.title} (${plural(i.urls, 'page')})`),
      ...more(LISTED, issues.length),
      `${plural(pages, 'page')} affected in all${on.segment ? ` in the segment “${on.segment.name}”` : ''}.`,
    ],
    {
      kind: 'NEW_ISSUES',
      auditId: facts.auditId,
      baseAuditId: facts.baseAuditId,
      issues,
      segment: segmentRef(on.segment),
    },
  );
}

function pageRegressions(rule: AlertRule, facts: AuditAlertFacts): AlertDraft | null {
  const pages = facts.pageRegressions.flatMap((p) => {
    const change = regressionOf(p);
    return change ? [{ ...p, change }] : [];
  });
  if (!pages.length) return null;
  return draft(
    rule,
    `${plural(pages.length, 'page')} stopped working or left the index`,
    [
      ...pages
        .slice(0, LISTED)
        .map((p) =>
          p.change === 'STATUS'
            ? `${p.url}: ${status(p.before.statusCode)} → ${status(p.after.statusCode)}`
            : `${p.url}: indexable → not indexable (noindex)`,
        ),
      ...more(LISTED, pages.length),
    ],
    { kind: 'PAGE_REGRESSION', auditId: facts.auditId, baseAuditId: facts.baseAuditId, pages },
  );
}

const formatVital = (v: VitalPoorFact) =>
  v.metric === 'CLS' ? v.value.toFixed(2) : `${Math.round(v.value).toLocaleString('en-US')} ms`;

function vitalsPoor(rule: AlertRule, facts: AuditAlertFacts): AlertDraft | null {
  const vitals = facts.vitalsPoor;
  if (!vitals.length) return null;
  return draft(
    rule,
    `${plural(vitals.length, 'Core Web Vital')} became poor`,
    [...vitals.slice(0, LISTED).map((v) => `${v.url}: ${v.metric} ${formatVital(v)}`), ...more(LISTED, vitals.length)],
    { kind: 'VITAL_POOR', auditId: facts.auditId, baseAuditId: facts.baseAuditId, vitals },
  );
}

/** Positions lost; null when the keyword left the checked results altogether (a drop of unknown size). */
const dropOf = (before: number, after: number | null): number | null => (after === null ? null : after - before);

function keywordDrops(rule: AlertRule, facts: RankAlertFacts): AlertDraft | null {
  const min = rule.positions ?? 1;
  const keywords = facts.moves
    .flatMap((m) => (m.before === null ? [] : [{ ...m, drop: dropOf(m.before, m.after) }]))
    .filter((m) => m.drop === null || m.drop >= min)
    .sort((a, b) => (b.drop ?? Infinity) - (a.drop ?? Infinity) || a.keyword.localeCompare(b.keyword));
  if (!keywords.length) return null;
  return draft(
    rule,
    `${plural(keywords.length, 'keyword')} dropped ${plural(min, 'position')} or more`,
    [
      ...keywords.slice(0, LISTED).map((k) => `“${k.keyword}”: ${position(k.before)} → ${position(k.after)}`),
      ...more(LISTED, keywords.length),
    ],
    { kind: 'KEYWORD_DROP', keywords },
  );
}

function leftTop10(rule: AlertRule, facts: RankAlertFacts): AlertDraft | null {
  const keywords = facts.moves
    .filter((m) => m.before !== null && m.before <= 10 && (m.after === null || m.after > 10))
    .sort((a, b) => a.keyword.localeCompare(b.keyword));
  if (!keywords.length) return null;
  return draft(
    rule,
    `${plural(keywords.length, 'keyword')} left the top 10`,
    [
      ...keywords.slice(0, LISTED).map((k) => `“${k.keyword}”: ${position(k.before)} → ${position(k.after)}`),
      ...more(LISTED, keywords.length),
    ],
    { kind: 'KEYWORD_LEFT_TOP10', keywords },
  );
}

function cannibalised(rule: AlertRule, facts: RankAlertFacts): AlertDraft | null {
  const keywords = facts.cannibalised
    .filter((k) => k.urls.length >= 2 && k.urlsBefore < 2)
    .sort((a, b) => b.urls.length - a.urls.length || a.keyword.localeCompare(b.keyword));
  if (!keywords.length) return null;
  return draft(
    rule,
    `${plural(keywords.length, 'keyword')} now ${keywords.length === 1 ? 'has' : 'have'} several of the site's ` +
      'URLs ranking',
    [
      ...keywords
        .slice(0, LISTED)
        .map((k) => `“${k.keyword}”: ${k.urls.map((u) => `#${u.position} ${u.url}`).join(', ')}`),
      ...more(LISTED, keywords.length),
    ],
    { kind: 'KEYWORD_CANNIBALISED', keywords },
  );
}

function draft(rule: AlertRule, title: string, lines: string[], details: AlertDetails): AlertDraft {
  return {
    ruleId: rule.id,
    projectId: rule.projectId,
    kind: rule.kind,
    channels: rule.channels,
    title,
    lines,
    details,
  };
}

const AUDIT_EVALUATORS: Partial<Record<AlertRuleKind, (r: AlertRule, f: AuditAlertFacts) => AlertDraft | null>> = {
  SCORE_DROP: scoreDrop,
  NEW_ISSUES: newIssues,
  PAGE_REGRESSION: pageRegressions,
  VITAL_POOR: vitalsPoor,
};
const RANK_EVALUATORS: Partial<Record<AlertRuleKind, (r: AlertRule, f: RankAlertFacts) => AlertDraft | null>> = {
  KEYWORD_DROP: keywordDrops,
  KEYWORD_LEFT_TOP10: leftTop10,
  KEYWORD_CANNIBALISED: cannibalised,
};

/** The alerts a finished audit raises: at most one per enabled rule of the project (with a channel). */
export function evaluateAuditRules(rules: readonly AlertRule[], facts: AuditAlertFacts): AlertDraft[] {
  return active(rules, AUDIT_RULE_KINDS)
    .filter((r) => r.projectId === facts.projectId)
    .flatMap((r) => AUDIT_EVALUATORS[r.kind]?.(r, facts) ?? []);
}

/** The alerts a finished rank check raises: at most one per enabled rule of the project (with a channel). */
export function evaluateRankRules(rules: readonly AlertRule[], facts: RankAlertFacts): AlertDraft[] {
  return active(rules, RANK_RULE_KINDS)
    .filter((r) => r.projectId === facts.projectId)
    .flatMap((r) => RANK_EVALUATORS[r.kind]?.(r, facts) ?? []);
}

/** One sentence that says what a rule watches, for lists and e-mails. */
export function describeRule(
  rule: Pick<AlertRule, 'kind' | 'category' | 'points' | 'minSeverity' | 'positions'> &
    Partial<Pick<AlertRule, 'segmentName'>>,
): string {
  const what = describeKind(rule);
  return rule.segmentName ? `${what}, in the segment “${rule.segmentName}”` : what;
}

function describeKind(rule: Pick<AlertRule, 'kind' | 'category' | 'points' | 'minSeverity' | 'positions'>): string {
  switch (rule.kind) {
    case 'SCORE_DROP': {
      const category = CATEGORY_LABEL[rule.category ?? 'OVERALL'];
      return `${category} score drops by ${plural(rule.points ?? 1, 'point')} or more`;
    }
    case 'NEW_ISSUES':
      return rule.minSeverity === 'NOTICE'
        ? 'New issues of any severity'
        : rule.minSeverity === 'WARNING'
          ? 'New critical issues or warnings'
          : 'New critical issues';
    case 'PAGE_REGRESSION':
      return 'A page that answered 200 now answers 4xx/5xx, or became noindex';
    case 'KEYWORD_DROP':
      return `A keyword drops ${plural(rule.positions ?? 1, 'position')} or more`;
    case 'KEYWORD_LEFT_TOP10':
      return 'A keyword leaves the top 10';
    case 'VITAL_POOR':
      return 'A Core Web Vital becomes poor';
    case 'KEYWORD_CANNIBALISED':
      return 'Two or more of the site’s URLs rank for a keyword at its latest check (and did not before)';
  }
}
