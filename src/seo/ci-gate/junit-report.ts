import { findCheck, guidanceFor } from '../checks/index.js';
import { byGateOrder, type GateOccurrence, type OccurrenceComparison } from './baseline-comparison.js';
import { failsNewOccurrence, type FailOnRule } from './gate-rules.js';

/**
 * JUnit XML for CI test reports: a `gate` suite with one testcase per gate rule (--fail-on, --fail-under), then one
 * suite per check code with one testcase per (code, URL) occurrence, named by the URL. What fails:
 * - without a baseline, every occurrence (the report is the list of the site's issues);
 * - with one, the new occurrences the --fail-on new-* rules trip (every new one when no such rule is given); the
 *   occurrences already in the baseline are `skipped` (known), the fixed ones pass, and new ones below the rules'
 *   severity pass with a note.
 */

export interface GateCheck {
  name: string;
  tripped: boolean;
  reason: string;
}

export interface JunitInput {
  /** The report's name, e.g. `seo audit https://example.com/`. */
  name: string;
  occurrences: readonly GateOccurrence[];
  comparison: OccurrenceComparison | null;
  rules: readonly FailOnRule[];
  /** One testcase each in the `gate` suite (absent when empty). */
  checks: readonly GateCheck[];
}

type Outcome =
  | { kind: 'failure'; message: string; type: string; body: string }
  | { kind: 'skipped'; message: string }
  | { kind: 'passed'; note: string | null };

interface TestCase {
  classname: string;
  name: string;
  outcome: Outcome;
}

// XML 1.0 admits tab, newline, carriage return and the code points from U+0020 on, surrogates and U+FFFE/F excepted.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe in an XML attribute or element: the five specials escaped, characters XML cannot carry dropped. */
export const escapeXml = (text: string): string =>
  text.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

function failureBody(o: GateOccurrence): string {
  const check = findCheck(o.code);
  const fix = guidanceFor(o.code)?.fix;
  return [o.url, check?.description ?? o.title, fix ? `How to fix: ${fix}` : ''].filter(Boolean).join('\n');
}

function occurrenceCase(o: GateOccurrence, outcome: Outcome): TestCase {
  return { classname: `seo.${o.code}`, name: o.url, outcome };
}

function occurrenceCases(input: JunitInput): TestCase[] {
  const c = input.comparison;
  const failure = (o: GateOccurrence, prefix: string): Outcome => ({
    kind: 'failure',
    message: `${prefix}${o.title} (${o.severity})`,
    type: o.severity,
    body: failureBody(o),
  });
  if (!c) return [...input.occurrences].sort(byGateOrder).map((o) => occurrenceCase(o, failure(o, '')));
  return [
    ...c.new.map((o) =>
      occurrenceCase(
        o,
        failsNewOccurrence(o, input.rules)
          ? failure(o, 'new since the baseline: ')
          : {
              kind: 'passed',
              note: `new since the baseline (${o.severity}), below the severity of the --fail-on rules`,
            },
      ),
    ),
    ...c.unchanged.map((o) => occurrenceCase(o, { kind: 'skipped', message: 'in the baseline (a known issue)' })),
    ...c.fixed.map((o) => occurrenceCase(o, { kind: 'passed', note: 'fixed since the baseline' })),
  ];
}

function testcaseXml(t: TestCase): string {
  const open = `    <testcase classname="${escapeXml(t.classname)}" name="${escapeXml(t.name)}" time="0"`;
  const o = t.outcome;
  if (o.kind === 'failure')
    return (
      `${open}>\n      <failure message="${escapeXml(o.message)}" type="${escapeXml(o.type)}">` +
      `${escapeXml(o.body)}</failure>\n    </testcase>`
    );
  if (o.kind === 'skipped') return `${open}>\n      <skipped message="${escapeXml(o.message)}"/>\n    </testcase>`;
  return o.note ? `${open}>\n      <system-out>${escapeXml(o.note)}</system-out>\n    </testcase>` : `${open}/>`;
}

function suiteXml(name: string, cases: TestCase[]): { xml: string; tests: number; failures: number; skipped: number } {
  const failures = cases.filter((t) => t.outcome.kind === 'failure').length;
  const skipped = cases.filter((t) => t.outcome.kind === 'skipped').length;
  const xml =
    `  <testsuite name="${escapeXml(name)}" tests="${cases.length}" failures="${failures}" errors="0" ` +
    `skipped="${skipped}" time="0">\n${cases.map(testcaseXml).join('\n')}\n  </testsuite>`;
  return { xml, tests: cases.length, failures, skipped };
}

export function buildJunitXml(input: JunitInput): string {
  const suites: ReturnType<typeof suiteXml>[] = [];
  if (input.checks.length)
    suites.push(
      suiteXml(
        'gate',
        input.checks.map((g) => ({
          classname: 'seo.gate',
          name: g.name,
          outcome: g.tripped
            ? { kind: 'failure', message: g.reason, type: 'gate', body: g.reason }
            : { kind: 'passed', note: g.reason },
        })),
      ),
    );
  // One suite per code, in the order of its first case (the cases come most severe first).
  const byCode = new Map<string, TestCase[]>();
  for (const t of occurrenceCases(input)) {
    const list = byCode.get(t.classname) ?? [];
    list.push(t);
    byCode.set(t.classname, list);
  }
  for (const [classname, cases] of byCode) suites.push(suiteXml(classname.slice('seo.'.length), cases));
  const total = (key: 'tests' | 'failures' | 'skipped') => suites.reduce((n, s) => n + s[key], 0);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${escapeXml(input.name)}" tests="${total('tests')}" failures="${total('failures')}" ` +
    `errors="0" skipped="${total('skipped')}" time="0">\n` +
    suites.map((s) => `${s.xml}\n`).join('') +
    '</testsuites>\n'
  );
}
