import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import {
  BaselineDocumentError,
  GateRuleError,
  assertRulesApplicable,
  buildJunitXml,
  buildSarifLog,
  compareOccurrences,
  escapeXml,
  evaluateGate,
  mergeRules,
  parseBaselineDocument,
  parseFailOn,
  relativeUri,
  uriReference,
  type GateOccurrence,
} from '../../../src/seo/ci-gate/index.js';
import { SARIF_SCHEMA as sarifSchema, sarifValidator } from '../../support/sarif-schema.js';
import { CHECK_CATALOG } from '../../../src/seo/checks/index.js';

const occ = (code: string, url: string, severity: GateOccurrence['severity'] = 'WARNING'): GateOccurrence => ({
  code,
  url,
  severity,
  title: `${code} title`,
  category: 'META',
});
const keys = (list: GateOccurrence[]) => list.map((o) => `${o.code} ${o.url}`);

describe('compareOccurrences: an occurrence is its (check code, URL)', () => {
  const baseline = [
    occ('META_TITLE_TOO_SHORT', 'https://s/a', 'NOTICE'),
    occ('META_DESCRIPTION_MISSING', 'https://s/a'),
    occ('META_DESCRIPTION_MISSING', 'https://s/b'),
  ];

  it('the same occurrences again are all unchanged', () => {
    const c = compareOccurrences(baseline, [...baseline].reverse());
    expect(c.new).toEqual([]);
    expect(c.fixed).toEqual([]);
    expect(keys(c.unchanged)).toHaveLength(3);
  });

  it('new = in this run only, fixed = in the baseline only; titles and evidence do not count', () => {
    const current = [
      { ...occ('META_DESCRIPTION_MISSING', 'https://s/a'), title: 'renamed', evidence: { x: 1 } },
      occ('META_TITLE_MISSING', 'https://s/c', 'CRITICAL'),
      // The same code on another URL is another occurrence, and the same URL with another code too.
      occ('META_DESCRIPTION_MISSING', 'https://s/c'),
      occ('META_TITLE_TOO_SHORT', 'https://s/b', 'NOTICE'),
    ];
    const c = compareOccurrences(baseline, current);
    // Most severe first, then by code and URL.
    expect(keys(c.new)).toEqual([
      'META_TITLE_MISSING https://s/c',
      'META_DESCRIPTION_MISSING https://s/c',
      'META_TITLE_TOO_SHORT https://s/b',
    ]);
    expect(keys(c.fixed)).toEqual(['META_DESCRIPTION_MISSING https://s/b', 'META_TITLE_TOO_SHORT https://s/a']);
    expect(c.unchanged).toEqual([current[0]]);
  });

  it('a (code, URL) listed twice on one side counts once', () => {
    const twice = [occ('META_TITLE_DUPLICATE', 'https://s/a'), occ('META_TITLE_DUPLICATE', 'https://s/a')];
    expect(compareOccurrences([], twice).new).toHaveLength(1);
    expect(compareOccurrences(twice, []).fixed).toHaveLength(1);
  });

  it('URLs are compared as written: another host or scheme is another URL', () => {
    const c = compareOccurrences([occ('X', 'https://s/a')], [occ('X', 'http://s/a')]);
    expect(keys(c.new)).toEqual(['X http://s/a']);
    expect(keys(c.fixed)).toEqual(['X https://s/a']);
  });

  it('a site fact is a fact of the site: new if the baseline had it nowhere, fixed only if gone everywhere', () => {
    const facts = CHECK_CATALOG.filter((c) => c.siteFact).map((c) => c.code as string);
    expect(facts).toContain('PERF_NO_COMPRESSION');
    const gzip = (url: string) => occ('PERF_NO_COMPRESSION', url, 'NOTICE');
    // /b shrank below the compression threshold and /d is a new page: the server still does not compress.
    const shrank = compareOccurrences(
      [gzip('https://s/a'), gzip('https://s/b'), occ('META_DESCRIPTION_MISSING', 'https://s/b')],
      [gzip('https://s/a'), gzip('https://s/d'), occ('META_DESCRIPTION_MISSING', 'https://s/d')],
    );
    expect(keys(shrank.new)).toEqual(['META_DESCRIPTION_MISSING https://s/d']);
    expect(keys(shrank.fixed)).toEqual(['META_DESCRIPTION_MISSING https://s/b']);
    expect(keys(shrank.unchanged)).toEqual(['PERF_NO_COMPRESSION https://s/a', 'PERF_NO_COMPRESSION https://s/d']);
    // Compression turned on: fixed on every URL that showed it; turned off: new on every URL that shows it.
    const on = compareOccurrences([gzip('https://s/a'), gzip('https://s/b')], []);
    expect(keys(on.fixed)).toEqual(['PERF_NO_COMPRESSION https://s/a', 'PERF_NO_COMPRESSION https://s/b']);
    const off = compareOccurrences([occ('TECH_HTTP_PAGE', 'http://s/a')], [gzip('http://s/a')]);
    expect(keys(off.new)).toEqual(['PERF_NO_COMPRESSION http://s/a']);
    expect(keys(off.fixed)).toEqual(['TECH_HTTP_PAGE http://s/a']);
  });
});

describe('--fail-on rules', () => {
  it('parses comma-separated rules, case-insensitively, each once across values', () => {
    expect(parseFailOn('new-error, SCORE-DROP:5')).toEqual([
      { kind: 'new', name: 'new-error', atLeast: 'CRITICAL' },
      { kind: 'score-drop', name: 'score-drop:5', points: 5 },
    ]);
    expect(parseFailOn('new-warning')[0]).toMatchObject({ atLeast: 'WARNING' });
    expect(parseFailOn('new-issue')[0]).toMatchObject({ atLeast: 'NOTICE' });
    expect(parseFailOn('score-drop:2.5')[0]).toMatchObject({ points: 2.5, name: 'score-drop:2.5' });
    expect(mergeRules(parseFailOn('new-error'), parseFailOn('new-error,score-drop:05')).map((r) => r.name)).toEqual([
      'new-error',
      'score-drop:5',
    ]);
  });

  it.each(['', 'new-errors', 'error', 'new-error,', 'score-drop', 'score-drop:', 'score-drop:0', 'score-drop:-3'])(
    'refuses %j with a message naming the accepted rules or the range',
    (value) => {
      expect(() => parseFailOn(value)).toThrow(GateRuleError);
      expect(() => parseFailOn(value)).toThrow(/new-error, new-warning, new-issue or score-drop|more than 0 to 100/);
    },
  );

  it.each(['score-drop:abc', 'score-drop:101', 'score-drop:Infinity', 'score-drop:0x5', 'score-drop: 5'])(
    'refuses %j',
    (value) => {
      expect(() => parseFailOn(value)).toThrow(/score-drop takes points from more than 0 to 100/);
    },
  );

  it('names that are properties of every object are no rules either', () => {
    for (const value of ['constructor', 'toString', '__proto__'])
      expect(() => parseFailOn(value)).toThrow(`--fail-on "${value}" is not a rule`);
  });

  it('every rule needs a baseline, and score-drop one with a score', () => {
    expect(() => assertRulesApplicable([], null)).not.toThrow();
    expect(() => assertRulesApplicable(parseFailOn('new-error'), null)).toThrow(/add --baseline/);
    const noScore = { label: 'issues.json', overall: null };
    expect(() => assertRulesApplicable(parseFailOn('new-error'), noScore)).not.toThrow();
    expect(() => assertRulesApplicable(parseFailOn('score-drop:5'), noScore)).toThrow(/issues.json has none/);
    expect(() => assertRulesApplicable(parseFailOn('score-drop:5'), { ...noScore, overall: 90 })).not.toThrow();
  });

  const comparison = compareOccurrences(
    [],
    [occ('A', 'https://s/1', 'NOTICE'), occ('B', 'https://s/2', 'WARNING'), occ('C', 'https://s/3', 'CRITICAL')],
  );
  const scores = { baseline: 90, current: 90 };

  it('new-error trips on a new CRITICAL occurrence only; new-warning from WARNING on; new-issue on any', () => {
    const verdict = evaluateGate(parseFailOn('new-error,new-warning,new-issue'), comparison, scores);
    expect(verdict.verdicts.map((v) => [v.rule, keys(v.occurrences)])).toEqual([
      ['new-error', ['C https://s/3']],
      ['new-warning', ['C https://s/3', 'B https://s/2']],
      ['new-issue', ['C https://s/3', 'B https://s/2', 'A https://s/1']],
    ]);
    expect(verdict.verdicts[0].reason).toBe('new-error: 1 new CRITICAL (error) occurrence(s)');
    expect(verdict.verdicts[2].reason).toBe('new-issue: 3 new occurrence(s)');
    const noCritical = compareOccurrences([], [occ('A', 'https://s/1', 'NOTICE'), occ('B', 'https://s/2')]);
    expect(evaluateGate(parseFailOn('new-error'), noCritical, scores)).toMatchObject({ tripped: false });
    expect(evaluateGate(parseFailOn('new-warning'), noCritical, scores)).toMatchObject({ tripped: true });
  });

  it('a fixed or unchanged CRITICAL occurrence trips nothing', () => {
    const critical = [occ('C', 'https://s/3', 'CRITICAL')];
    expect(evaluateGate(parseFailOn('new-issue'), compareOccurrences(critical, critical), scores).tripped).toBe(false);
    expect(evaluateGate(parseFailOn('new-issue'), compareOccurrences(critical, []), scores).tripped).toBe(false);
  });

  it('score-drop:N trips when the overall score fell by N points or more', () => {
    const empty = compareOccurrences([], []);
    const drop = (current: number) => evaluateGate(parseFailOn('score-drop:5'), empty, { baseline: 90, current });
    expect(drop(86)).toMatchObject({ tripped: false });
    expect(drop(85)).toMatchObject({ tripped: true });
    expect(drop(85).verdicts[0].reason).toBe('score-drop:5: the overall score fell by 5 point(s), from 90 to 85');
    expect(drop(95).verdicts[0]).toMatchObject({ tripped: false, reason: expect.stringContaining('rose by 5') });
  });
});

describe('parseBaselineDocument', () => {
  const cliOutput = {
    url: 'https://s/',
    status: 'COMPLETED',
    scores: { overall: 88 },
    issues: [
      {
        code: 'META_TITLE_MISSING',
        title: 'Missing title',
        severity: 'CRITICAL',
        category: 'META',
        examples: ['https://s/a'],
        occurrences: [
          { url: 'https://s/a', evidence: { titleCount: 0 } },
          { url: 'https://s/b', evidence: null },
        ],
      },
    ],
  };

  it('reads the CLI output of --json --all-occurrences: every occurrence with its issue fields, and the score', () => {
    expect(parseBaselineDocument(cliOutput, 'base.json')).toEqual({
      label: 'base.json',
      url: 'https://s/',
      overall: 88,
      occurrences: [
        {
          code: 'META_TITLE_MISSING',
          url: 'https://s/a',
          severity: 'CRITICAL',
          title: 'Missing title',
          category: 'META',
        },
        {
          code: 'META_TITLE_MISSING',
          url: 'https://s/b',
          severity: 'CRITICAL',
          title: 'Missing title',
          category: 'META',
        },
      ],
    });
  });

  it('refuses the output of --json without --all-occurrences (5 examples are not every occurrence)', () => {
    const examplesOnly = { ...cliOutput, issues: [{ ...cliOutput.issues[0], occurrences: undefined }] };
    expect(() => parseBaselineDocument(examplesOnly, 'b.json')).toThrow(BaselineDocumentError);
    expect(() => parseBaselineDocument(examplesOnly, 'b.json')).toThrow(
      /lists examples, not every occurrence: save the baseline with `seo audit <url> --json --all-occurrences`/,
    );
    // A site without issues has nothing to list either way: a valid (empty) baseline.
    expect(parseBaselineDocument({ ...cliOutput, issues: [] }, 'b.json').occurrences).toEqual([]);
  });

  it('refuses a failed audit and documents of another shape', () => {
    expect(() => parseBaselineDocument({ ...cliOutput, status: 'FAILED', issues: [] }, 'b')).toThrow(/FAILED/);
    for (const doc of [null, [], 'x', { kind: 'pages', rows: [] }, { scores: {} }])
      expect(() => parseBaselineDocument(doc, 'b')).toThrow(/not a baseline: expected the JSON of `seo audit/);
  });

  it("reads the platform's report of one audit, with its occurrences and scores", () => {
    const report = {
      reports: [
        {
          auditId: 'a1',
          status: 'COMPLETED',
          scores: { overall: 71 },
          occurrences: [
            {
              code: 'META_DESCRIPTION_MISSING',
              title: 'Missing meta description',
              severity: 'WARNING',
              url: 'https://s/',
            },
          ],
        },
      ],
    };
    expect(parseBaselineDocument(report, 'r.json')).toMatchObject({
      overall: 71,
      occurrences: [{ code: 'META_DESCRIPTION_MISSING', url: 'https://s/', severity: 'WARNING', category: 'META' }],
    });
    // The list of reports (no auditId) carries no occurrences.
    const list = { reports: [{ auditId: 'a1', status: 'COMPLETED', scores: { overall: 71 } }] };
    expect(() => parseBaselineDocument(list, 'r.json')).toThrow(/reports\?auditId=<id>/);
  });

  it("reads the platform's issues export (no score), filling a missing severity from the catalog", () => {
    const exported = {
      kind: 'issues',
      audit: { id: 'a1', status: 'COMPLETED' },
      rows: [{ code: 'META_TITLE_MISSING', url: 'https://s/x' }],
    };
    expect(parseBaselineDocument(exported, 'e.json')).toMatchObject({
      overall: null,
      occurrences: [{ code: 'META_TITLE_MISSING', severity: 'CRITICAL', title: 'Missing title' }],
    });
    const unknown = { ...exported, rows: [{ code: 'NOT_A_CODE', url: 'https://s/x' }] };
    expect(() => parseBaselineDocument(unknown, 'e.json')).toThrow(/NOT_A_CODE\) has no severity/);
  });
});

describe('SARIF 2.1.0', () => {
  const tool = {
    name: 'SEO Audit Platform',
    version: '1.2.3',
    informationUri: 'https://github.com/seo-audit-platform',
  };
  const current = [
    { ...occ('META_TITLE_MISSING', 'https://s/new?p=1&q=<2>', 'CRITICAL'), evidence: { titleCount: 0 } },
    occ('META_DESCRIPTION_MISSING', 'https://s/'),
    occ('TECH_ROBOTS_MISSING', 'https://s/robots.txt', 'NOTICE'),
  ];
  const baseline = [occ('META_DESCRIPTION_MISSING', 'https://s/'), occ('META_VIEWPORT_MISSING', 'https://s/old')];
  const validate = sarifValidator();

  it('the schema it is validated against is the SARIF 2.1.0 one, with no draft-04-only keyword', () => {
    expect(sarifSchema.title).toMatch(/SARIF\) Version 2\.1\.0/);
    expect(JSON.stringify(sarifSchema)).not.toMatch(/"exclusiveM(in|ax)imum"/);
    // The validator is live: a level SARIF does not have is refused.
    const log = buildSarifLog({ tool, occurrences: current, comparison: null, uris: 'absolute' });
    (log.runs[0].results[0] as { level: string }).level = 'critical';
    expect(validate(log)).toBe(false);
  });

  it('without a baseline: one rule per code from the catalog, one result per occurrence at its URL', () => {
    const log = buildSarifLog({ tool, occurrences: current, comparison: null, uris: 'absolute' });
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const { driver } = log.runs[0].tool;
    expect(driver).toMatchObject(tool);
    expect(driver.rules.map((r) => [r.id, r.name, r.defaultConfiguration.level])).toEqual([
      ['META_TITLE_MISSING', 'MetaTitleMissing', 'error'],
      ['META_DESCRIPTION_MISSING', 'MetaDescriptionMissing', 'warning'],
      ['TECH_ROBOTS_MISSING', 'TechRobotsMissing', 'note'],
    ]);
    expect(driver.rules[0].shortDescription.text).toBe('Missing title');
    expect(driver.rules[0].fullDescription.text).toBe('The page has no <title>, or it is empty after trimming.');
    expect(driver.rules[0].help.text).toMatch(/How to fix: Add one title element/);
    const [first] = log.runs[0].results;
    expect(first).toMatchObject({
      ruleId: 'META_TITLE_MISSING',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'META_TITLE_MISSING title on https://s/new?p=1&q=<2>' },
      // The location is a URI reference (RFC 3986): what it does not admit is percent-encoded; the message keeps it.
      locations: [{ physicalLocation: { artifactLocation: { uri: 'https://s/new?p=1&q=%3C2%3E' } } }],
      properties: { evidence: { titleCount: 0 }, severity: 'CRITICAL' },
    });
    expect(first).not.toHaveProperty('baselineState');
    expect(log.runs[0].results.map((r) => r.level)).toEqual(['error', 'warning', 'note']);
  });

  it('with a baseline: new, unchanged, and the fixed ones absent (kind pass, level none)', () => {
    const comparison = compareOccurrences(baseline, current);
    const log = buildSarifLog({ tool, occurrences: current, comparison, uris: 'absolute' });
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results.map((r) => [r.ruleId, r.baselineState, r.kind ?? 'fail', r.level])).toEqual([
      ['META_TITLE_MISSING', 'new', 'fail', 'error'],
      ['TECH_ROBOTS_MISSING', 'new', 'fail', 'note'],
      ['META_DESCRIPTION_MISSING', 'unchanged', 'fail', 'warning'],
      ['META_VIEWPORT_MISSING', 'absent', 'pass', 'none'],
    ]);
    const rules = log.runs[0].tool.driver.rules;
    for (const r of log.runs[0].results) expect(rules[r.ruleIndex].id).toBe(r.ruleId);
  });

  it('locations are URI references: characters RFC 3986 does not admit are percent-encoded, escapes kept', () => {
    expect(uriReference('https://s/a b|c^d?q=100%&r=%41#x#y')).toBe('https://s/a%20b%7Cc%5Ed?q=100%25&r=%41#x%23y');
    expect(uriReference('https://s/caf\u00e9\uD800')).toBe('https://s/caf%C3%A9%EF%BF%BD');
    expect(uriReference('https://s/ok/path?x=1&y=2')).toBe('https://s/ok/path?x=1&y=2');
  });

  it('relative locations (GitHub code scanning) are host/path without a scheme, and still valid', () => {
    expect(relativeUri('https://s.example/a/b?x=1#top')).toBe('s.example/a/b?x=1');
    expect(relativeUri('http://cli.test:8080/')).toBe('cli.test%3A8080/');
    const log = buildSarifLog({ tool, occurrences: current, comparison: null, uris: 'relative' });
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('s/new?p=1&q=%3C2%3E');
    expect(log.runs[0].results[0].message.text).toContain('https://s/new');
  });
});

/** The XML as a tree of elements (saxes throws on anything not well-formed). */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' };
    stack[stack.length - 1].children.push(element);
    stack.push(element);
  });
  parser.on('text', (text) => (stack[stack.length - 1].text += text));
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  return root.children[0];
}

describe('JUnit XML', () => {
  const nasty = 'https://s/a?x=1&y=<b>"\'\u0001';
  const current = [occ('META_TITLE_MISSING', nasty, 'CRITICAL'), occ('META_DESCRIPTION_MISSING', 'https://s/')];

  it('escapes the five specials and drops characters XML cannot carry', () => {
    expect(escapeXml(`a&b<c>d"e'f\u0000g\uFFFEh\uD800i😀`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;fghi😀');
  });

  it('without a baseline: a suite per code, a failing testcase per occurrence, well-formed', () => {
    const xml = buildJunitXml({
      name: 'seo audit https://s/',
      occurrences: current,
      comparison: null,
      rules: [],
      checks: [],
    });
    const doc = parseXml(xml);
    expect(doc.name).toBe('testsuites');
    expect(doc.attributes).toMatchObject({ tests: '2', failures: '2', skipped: '0' });
    expect(doc.children.map((s) => s.attributes.name)).toEqual(['META_TITLE_MISSING', 'META_DESCRIPTION_MISSING']);
    const [testcase] = doc.children[0].children;
    expect(testcase.attributes).toMatchObject({
      classname: 'seo.META_TITLE_MISSING',
      name: 'https://s/a?x=1&y=<b>"\'',
    });
    expect(testcase.children[0]).toMatchObject({ name: 'failure', attributes: { type: 'CRITICAL' } });
    expect(testcase.children[0].text).toMatch(/^https:\/\/s\/a\?x=1&y=<b>"'\nThe page has no <title>/);
  });

  it('with a baseline: new ones the rules trip fail, known ones are skipped, fixed ones pass; a gate suite', () => {
    const comparison = compareOccurrences(
      [occ('META_DESCRIPTION_MISSING', 'https://s/'), occ('META_VIEWPORT_MISSING', 'https://s/old')],
      [...current, occ('META_TITLE_TOO_SHORT', 'https://s/t', 'NOTICE')],
    );
    const rules = parseFailOn('new-error');
    const verdict = evaluateGate(rules, comparison, { baseline: 90, current: 80 });
    const checks = verdict.verdicts.map((v) => ({ name: v.rule, tripped: v.tripped, reason: v.reason }));
    const doc = parseXml(buildJunitXml({ name: 'seo audit', occurrences: current, comparison, rules, checks }));
    expect(doc.attributes).toMatchObject({ tests: '5', failures: '2', skipped: '1' });
    const cases = doc.children.flatMap((s) =>
      s.children.map((c) => [s.attributes.name, c.attributes.name, c.children[0]?.name]),
    );
    expect(cases).toEqual([
      ['gate', 'new-error', 'failure'],
      ['META_TITLE_MISSING', nasty.replace('\u0001', ''), 'failure'],
      // New, but below new-error: passes, with a note.
      ['META_TITLE_TOO_SHORT', 'https://s/t', 'system-out'],
      ['META_DESCRIPTION_MISSING', 'https://s/', 'skipped'],
      ['META_VIEWPORT_MISSING', 'https://s/old', 'system-out'],
    ]);
    // Without a new-* rule every new occurrence fails.
    const noRules = parseXml(buildJunitXml({ name: 'x', occurrences: current, comparison, rules: [], checks: [] }));
    expect(noRules.attributes).toMatchObject({ failures: '2', tests: '4' });
  });
});
