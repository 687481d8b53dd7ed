import { describe, expect, it } from 'vitest';
import { describeRule, evaluateAuditRules, evaluateRankRules, type AlertRule } from '../../../src/alerts/index.js';
import type { AuditAlertFacts, CategoryScores, RankAlertFacts } from '../../../src/alerts/index.js';
import { parseAlertRuleInput } from '../../../src/alerts/alert-rule-input.js';
import { poorVitalCrossings } from '../../../src/alerts/alert-vitals.js';
import { DomainError } from '../../../src/platform/errors.js';

const PROJECT = '0192f0c0-0000-7000-8000-000000000001';
let n = 0;
function rule(fields: Partial<AlertRule> & Pick<AlertRule, 'kind'>): AlertRule {
  n++;
  return {
    id: `rule-${n}`,
    projectId: PROJECT,
    category: null,
    points: null,
    minSeverity: null,
    positions: null,
    segmentId: null,
    segmentName: null,
    enabled: true,
    channels: ['WEBHOOK'],
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...fields,
  };
}

const scores = (s: Partial<CategoryScores> = {}): CategoryScores => ({
  overall: 80,
  meta: 70,
  content: 60,
  links: 90,
  technical: 85,
  performance: 95,
  ...s,
});

function auditFacts(f: Partial<AuditAlertFacts> = {}): AuditAlertFacts {
  return {
    projectId: PROJECT,
    auditId: 'head',
    baseAuditId: 'base',
    scores: { before: scores(), after: scores() },
    scoresBeforeWontFix: false,
    settingChanges: [],
    newIssues: [],
    pageRegressions: [],
    vitalsPoor: [],
    ...f,
  };
}

describe('a rule watching a segment', () => {
  const blog = {
    segmentId: 'seg-blog',
    name: 'Blog',
    scores: { before: scores({ overall: 90 }), after: scores({ overall: 60 }) },
    newIssues: [
      { code: 'META_TITLE_MISSING', title: 'Title missing', severity: 'CRITICAL' as const, urls: 2, exampleUrls: [] },
    ],
  };
  const facts = auditFacts({ segments: [blog] });

  it("is evaluated on the segment's figures, the site-wide rule on the site's", () => {
    const scoped = rule({
      kind: 'SCORE_DROP',
      category: 'OVERALL',
      points: 10,
      segmentId: 'seg-blog',
      segmentName: 'Blog',
    });
    const site = rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 10 });
    const alerts = evaluateAuditRules([scoped, site], facts);
    expect(alerts.map((a) => a.ruleId)).toEqual([scoped.id]);
    expect(alerts[0].title).toBe('Segment “Blog”: Overall score dropped 30 points (90 → 60)');
    expect(alerts[0].details).toMatchObject({ segment: { id: 'seg-blog', name: 'Blog' } });
    const issues = evaluateAuditRules(
      [rule({ kind: 'NEW_ISSUES', segmentId: 'seg-blog' }), rule({ kind: 'NEW_ISSUES' })],
      facts,
    );
    expect(issues.map((a) => a.title)).toEqual(['Segment “Blog”: 1 new issue since the previous audit']);
    expect(describeRule(scoped)).toBe('Overall score drops by 10 points or more, in the segment “Blog”');
  });

  it('raises nothing when the facts do not have its segment', () => {
    const r = rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1, segmentId: 'seg-gone' });
    expect(evaluateAuditRules([r], facts)).toEqual([]);
  });
});

describe('SCORE_DROP', () => {
  it.each([
    // [category, points, before, after, raises]
    ['OVERALL', 5, 80, 75, true],
    ['OVERALL', 5, 80, 76, false],
    ['OVERALL', 5, 80, 90, false],
    ['META', 10, 70, 55, true],
    ['META', 10, 70, 61, false],
    ['PERFORMANCE', 1, 95, 94, true],
  ] as const)('%s drop of ≥ %i: %i → %i raises: %s', (category, points, before, after, raises) => {
    const key = category.toLowerCase() as keyof CategoryScores;
    const facts = auditFacts({ scores: { before: scores({ [key]: before }), after: scores({ [key]: after }) } });
    const alerts = evaluateAuditRules([rule({ kind: 'SCORE_DROP', category, points })], facts);
    expect(alerts.length).toBe(raises ? 1 : 0);
    if (raises) {
      expect(alerts[0].details).toMatchObject({ kind: 'SCORE_DROP', category, before, after, drop: before - after });
      expect(alerts[0].title).toContain(`(${before} → ${after})`);
    }
  });

  it('raises nothing without a previous audit, or where a score is missing', () => {
    const r = rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1 });
    expect(evaluateAuditRules([r], auditFacts({ scores: { before: null, after: scores({ overall: 10 }) } }))).toEqual(
      [],
    );
    const missing = auditFacts({ scores: { before: scores({ overall: null }), after: scores({ overall: 10 }) } });
    expect(evaluateAuditRules([r], missing)).toEqual([]);
  });

  it('raises nothing when the audits were scored with different check settings', () => {
    const r = rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1 });
    const drop = { scores: { before: scores({ overall: 84 }), after: scores({ overall: 23 }) } };
    expect(evaluateAuditRules([r], auditFacts(drop))).toHaveLength(1);
    const settings = auditFacts({ ...drop, settingChanges: ['Page served over HTTP (TECH_HTTP_PAGE) enabled'] });
    expect(evaluateAuditRules([r], settings)).toEqual([]);
  });

  it('watches only the category of the rule', () => {
    const facts = auditFacts({ scores: { before: scores({ links: 90 }), after: scores({ links: 40 }) } });
    const alerts = evaluateAuditRules(
      [
        rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1 }),
        rule({ kind: 'SCORE_DROP', category: 'LINKS', points: 50 }),
      ],
      facts,
    );
    expect(alerts.map((a) => a.details)).toEqual([expect.objectContaining({ category: 'LINKS', drop: 50 })]);
  });
});

describe('NEW_ISSUES', () => {
  const issue = (code: string, severity: 'CRITICAL' | 'WARNING' | 'NOTICE', urls = 1) => ({
    code,
    title: `${code} title`,
    severity,
    urls,
    exampleUrls: [],
  });
  const facts = auditFacts({
    newIssues: [issue('A', 'NOTICE', 9), issue('B', 'WARNING', 3), issue('C', 'CRITICAL', 2)],
  });

  it.each([
    ['CRITICAL', ['C']],
    ['WARNING', ['C', 'B']],
    ['NOTICE', ['C', 'B', 'A']],
  ] as const)('minimum %s counts %j, most severe first', (minSeverity, codes) => {
    const [alert] = evaluateAuditRules([rule({ kind: 'NEW_ISSUES', minSeverity })], facts);
    expect(alert.details.kind === 'NEW_ISSUES' && alert.details.issues.map((i) => i.code)).toEqual(codes);
    expect(alert.title).toBe(`${codes.length} new issue${codes.length === 1 ? '' : 's'} since the previous audit`);
  });

  it('raises nothing when no new issue is severe enough', () => {
    const onlyNotice = auditFacts({ newIssues: [issue('A', 'NOTICE')] });
    expect(evaluateAuditRules([rule({ kind: 'NEW_ISSUES', minSeverity: 'WARNING' })], onlyNotice)).toEqual([]);
  });
});

describe('PAGE_REGRESSION', () => {
  const page = (url: string, before: [number | null, boolean], after: [number | null, boolean]) => ({
    url,
    before: { statusCode: before[0], indexable: before[1] },
    after: { statusCode: after[0], indexable: after[1] },
  });

  it('counts 200 → 4xx/5xx and indexable → noindex, nothing else', () => {
    const facts = auditFacts({
      pageRegressions: [
        page('https://a.example/gone', [200, true], [404, false]),
        page('https://a.example/error', [200, true], [503, false]),
        page('https://a.example/hidden', [200, true], [200, false]),
        page('https://a.example/moved', [200, true], [301, false]),
        page('https://a.example/was-broken', [500, false], [404, false]),
        page('https://a.example/unreachable', [200, true], [null, false]),
        page('https://a.example/fixed', [404, false], [200, true]),
      ],
    });
    const [alert] = evaluateAuditRules([rule({ kind: 'PAGE_REGRESSION' })], facts);
    expect(alert.details.kind === 'PAGE_REGRESSION' && alert.details.pages.map((p) => [p.url, p.change])).toEqual([
      ['https://a.example/gone', 'STATUS'],
      ['https://a.example/error', 'STATUS'],
      ['https://a.example/hidden', 'NOINDEX'],
    ]);
    expect(alert.lines[0]).toBe('https://a.example/gone: HTTP 200 → HTTP 404');
  });

  it('raises nothing when no page regressed', () => {
    const facts = auditFacts({ pageRegressions: [page('https://a.example/', [301, false], [404, false])] });
    expect(evaluateAuditRules([rule({ kind: 'PAGE_REGRESSION' })], facts)).toEqual([]);
  });
});

describe('VITAL_POOR', () => {
  it('raises one alert listing every vital that became poor', () => {
    const facts = auditFacts({
      vitalsPoor: [
        { url: 'https://a.example/', metric: 'LCP', value: 5200, before: 2000 },
        { url: 'https://a.example/b', metric: 'CLS', value: 0.4, before: null },
      ],
    });
    const [alert] = evaluateAuditRules([rule({ kind: 'VITAL_POOR' })], facts);
    expect(alert.title).toBe('2 Core Web Vitals became poor');
    expect(alert.lines).toEqual(['https://a.example/: LCP 5,200 ms', 'https://a.example/b: CLS 0.40']);
  });

  it('the crossings: poor now and not poor (or not measured) in the base audit', () => {
    const bounds = [
      { metric: 'LCP' as const, poor: 4000 },
      { metric: 'CLS' as const, poor: 0.25 },
    ];
    const row = (url: string, LCP: number | null, CLS: number | null, device = 'desktop') => ({
      url,
      device,
      LCP,
      CLS,
      INP: null,
      TBT: null,
      FCP: null,
      TTFB: null,
    });
    const head = [row('/a', 4500, 0.1), row('/b', 4500, 0.3), row('/c', 3000, 0.5), row('/new', 9000, null)];
    const base = [row('/a', 3900, 0.1), row('/b', 4100, 0.1), row('/c', 3000, 0.26)];
    expect(poorVitalCrossings(head, base, bounds)).toEqual([
      { url: '/a', metric: 'LCP', value: 4500, before: 3900 },
      { url: '/b', metric: 'CLS', value: 0.3, before: 0.1 },
      { url: '/new', metric: 'LCP', value: 9000, before: null },
    ]);
  });
});

describe('rank rules', () => {
  const move = (keyword: string, before: number | null, after: number | null) => ({
    keywordId: `kw-${keyword}`,
    keyword,
    before,
    after,
    url: null,
  });
  const facts: RankAlertFacts = {
    projectId: PROJECT,
    moves: [
      move('slipped', 3, 8),
      move('fell', 4, 15),
      move('vanished', 9, null),
      move('rose', 12, 2),
      move('new', null, 30),
      move('deep', 40, 45),
    ],
    cannibalised: [],
  };

  it('KEYWORD_DROP: drops of at least N positions, a keyword gone from the results counts, biggest first', () => {
    const [alert] = evaluateRankRules([rule({ kind: 'KEYWORD_DROP', positions: 5 })], facts);
    expect(alert.details.kind === 'KEYWORD_DROP' && alert.details.keywords.map((k) => [k.keyword, k.drop])).toEqual([
      ['vanished', null],
      ['fell', 11],
      ['deep', 5],
      ['slipped', 5],
    ]);
    expect(alert.lines[0]).toBe('“vanished”: #9 → not ranking');
  });

  it('KEYWORD_LEFT_TOP10: ranked 1-10 before, lower or not at all now', () => {
    const [alert] = evaluateRankRules([rule({ kind: 'KEYWORD_LEFT_TOP10' })], facts);
    expect(alert.details.kind === 'KEYWORD_LEFT_TOP10' && alert.details.keywords.map((k) => k.keyword).sort()).toEqual([
      'fell',
      'vanished',
    ]);
  });

  it('KEYWORD_CANNIBALISED: 2+ site URLs at the latest check and fewer before; most URLs first', () => {
    const hit = (keyword: string, urls: number, urlsBefore: number) => ({
      keywordId: `kw-${keyword}`,
      keyword,
      urls: Array.from({ length: urls }, (_, i) => ({ url: `https://example.com/${keyword}/${i}`, position: i + 3 })),
      urlsBefore,
    });
    const cannibalised = [hit('pots', 2, 1), hit('soil', 3, 0), hit('still', 2, 2), hit('single', 1, 0)];
    const rules = [rule({ kind: 'KEYWORD_CANNIBALISED' })];
    const [alert, ...others] = evaluateRankRules(rules, { ...facts, cannibalised });
    expect(others).toEqual([]);
    expect(alert.details.kind === 'KEYWORD_CANNIBALISED' && alert.details.keywords.map((k) => k.keyword)).toEqual([
      'soil',
      'pots',
    ]);
    expect(alert.title).toBe("2 keywords now have several of the site's URLs ranking");
    expect(alert.lines[1]).toBe('“pots”: #3 https://example.com/pots/0, #4 https://example.com/pots/1');
    expect(evaluateRankRules(rules, { ...facts, cannibalised: [hit('still', 2, 2)] })).toEqual([]);
    expect(evaluateRankRules(rules, facts)).toEqual([]);
    expect(parseAlertRuleInput({ kind: 'KEYWORD_CANNIBALISED', channels: ['EMAIL'] }).kind).toBe(
      'KEYWORD_CANNIBALISED',
    );
  });

  it('audit rules ignore rank facts and the other way round', () => {
    const rules = [rule({ kind: 'KEYWORD_DROP', positions: 1 }), rule({ kind: 'VITAL_POOR' })];
    expect(evaluateRankRules(rules, facts).map((a) => a.kind)).toEqual(['KEYWORD_DROP']);
    const vitals = auditFacts({ vitalsPoor: [{ url: '/', metric: 'TBT', value: 900, before: 100 }] });
    expect(evaluateAuditRules(rules, vitals).map((a) => a.kind)).toEqual(['VITAL_POOR']);
  });
});

describe('which rules run', () => {
  it('skips disabled rules, rules without a channel and rules of another project', () => {
    const facts = auditFacts({ scores: { before: scores({ overall: 90 }), after: scores({ overall: 10 }) } });
    const alerts = evaluateAuditRules(
      [
        rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1, enabled: false }),
        rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1, channels: [] }),
        rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1, projectId: 'other' }),
        rule({ kind: 'SCORE_DROP', category: 'OVERALL', points: 1, channels: ['EMAIL', 'WEBHOOK'] }),
      ],
      facts,
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0].channels).toEqual(['EMAIL', 'WEBHOOK']);
  });
});

describe('rule input', () => {
  const bad = (input: Record<string, unknown>) => {
    try {
      parseAlertRuleInput(input);
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      return { code: (err as DomainError).code, paths: (err as DomainError).details?.map((d) => d.path) };
    }
    throw new Error('accepted');
  };

  it('takes each kind with its parameter and defaults', () => {
    expect(parseAlertRuleInput({ kind: 'SCORE_DROP', points: 5, channels: ['WEBHOOK', 'EMAIL'] })).toEqual({
      kind: 'SCORE_DROP',
      category: 'OVERALL',
      points: 5,
      minSeverity: null,
      positions: null,
      segmentId: null,
      enabled: true,
      channels: ['EMAIL', 'WEBHOOK'],
    });
    expect(parseAlertRuleInput({ kind: 'NEW_ISSUES', channels: ['EMAIL'], enabled: false })).toMatchObject({
      minSeverity: 'CRITICAL',
      enabled: false,
    });
    expect(parseAlertRuleInput({ kind: 'KEYWORD_DROP', positions: 3, channels: ['EMAIL'] }).positions).toBe(3);
    expect(
      describeRule(parseAlertRuleInput({ kind: 'SCORE_DROP', category: 'META', points: 1, channels: ['EMAIL'] })),
    ).toBe('Meta score drops by 1 point or more');
  });

  it.each([
    [{ kind: 'SCORE_DROP', channels: ['EMAIL'] }, ['points']],
    [{ kind: 'SCORE_DROP', points: 0, channels: ['EMAIL'] }, ['points']],
    [{ kind: 'SCORE_DROP', points: 2.5, channels: ['EMAIL'] }, ['points']],
    [{ kind: 'SCORE_DROP', points: 5, category: 'SPEED', channels: ['EMAIL'] }, ['category']],
    [{ kind: 'KEYWORD_DROP', channels: ['EMAIL'] }, ['positions']],
    [{ kind: 'KEYWORD_DROP', positions: 101, channels: ['EMAIL'] }, ['positions']],
    [{ kind: 'VITAL_POOR', points: 5, channels: ['EMAIL'] }, ['points']],
    [{ kind: 'NEW_ISSUES', minSeverity: 'LOW', channels: ['EMAIL'] }, ['minSeverity']],
    [{ kind: 'PAGE_REGRESSION', channels: [] }, ['channels']],
    [{ kind: 'PAGE_REGRESSION', channels: ['SMS'] }, ['channels']],
    [{ kind: 'LOUD', channels: ['EMAIL'] }, ['kind']],
    [{ kind: 'PAGE_REGRESSION', segmentId: 'a-segment', channels: ['EMAIL'] }, ['segmentId']],
    [{ kind: 'SCORE_DROP', points: 5, segmentId: 7, channels: ['EMAIL'] }, ['segmentId']],
  ])('%j is refused at %j', (input, paths) => {
    expect(bad(input)).toEqual({ code: 'BAD_USER_INPUT', paths });
  });
});
