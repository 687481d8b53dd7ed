import { SEVERITY_WEIGHTS, type Severity } from '../checks/index.js';
import type { GateOccurrence, OccurrenceComparison } from './baseline-comparison.js';

/**
 * A `--fail-on` rule. Every rule compares with a baseline:
 * - `new-error`: any new CRITICAL occurrence; `new-warning`: any new WARNING or CRITICAL one; `new-issue`: any new
 *   occurrence at all;
 * - `score-drop:<points>`: the overall score fell by at least that many points since the baseline.
 */
export type FailOnRule =
  | { kind: 'new'; name: 'new-error' | 'new-warning' | 'new-issue'; atLeast: Severity }
  | { kind: 'score-drop'; name: string; points: number };

/** A value of --fail-on that is not a rule, or rules that cannot apply (no baseline, a baseline without scores). */
export class GateRuleError extends Error {
  override readonly name = 'GateRuleError';
}

export const FAIL_ON_SYNTAX = 'new-error, new-warning, new-issue or score-drop:<points>';

const NEW_RULES = new Map<string, Severity>([
  ['new-error', 'CRITICAL'],
  ['new-warning', 'WARNING'],
  ['new-issue', 'NOTICE'],
]);

/** One --fail-on value: rules separated by commas (`new-error,score-drop:5`). */
export function parseFailOn(value: string): FailOnRule[] {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => p === ''))
    throw new GateRuleError(`--fail-on "${value}" names an empty rule; use ${FAIL_ON_SYNTAX}.`);
  return parts.map((part): FailOnRule => {
    const rule = part.toLowerCase();
    const atLeast = NEW_RULES.get(rule);
    if (atLeast) return { kind: 'new', name: rule as 'new-error' | 'new-warning' | 'new-issue', atLeast };
    const drop = /^score-drop:(.*)$/.exec(rule);
    if (!drop) throw new GateRuleError(`--fail-on "${part}" is not a rule; use ${FAIL_ON_SYNTAX}.`);
    const points = Number(drop[1]);
    if (!/^\d+(\.\d+)?$/.test(drop[1]) || points <= 0 || points > 100)
      throw new GateRuleError(
        `--fail-on "${part}": score-drop takes points from more than 0 to 100, e.g. score-drop:5.`,
      );
    return { kind: 'score-drop', name: `score-drop:${points}`, points };
  });
}

/** Rules from several --fail-on values, each once (`new-error` given twice is one rule). */
export function mergeRules(...lists: readonly FailOnRule[][]): FailOnRule[] {
  const byName = new Map<string, FailOnRule>();
  for (const rule of lists.flat()) if (!byName.has(rule.name)) byName.set(rule.name, rule);
  return [...byName.values()];
}

/** Refuses rules that cannot be judged: every rule needs a baseline, and score-drop one that carries a score. */
export function assertRulesApplicable(
  rules: readonly FailOnRule[],
  baseline: { label: string; overall: number | null } | null,
): void {
  if (!rules.length) return;
  if (!baseline)
    throw new GateRuleError(
      `--fail-on ${rules.map((r) => r.name).join(',')} compares with a baseline: add --baseline <file|id>.`,
    );
  const drop = rules.find((r) => r.kind === 'score-drop');
  if (drop && baseline.overall === null)
    throw new GateRuleError(
      `--fail-on ${drop.name} needs the baseline's overall score, and ${baseline.label} has none (an issues ` +
        'export): use the JSON of `seo audit --json --all-occurrences`, a report with its occurrences, or an audit id.',
    );
}

/** Whether a new occurrence is at or above the severity a new-* rule names. */
const reaches = (o: GateOccurrence, atLeast: Severity) => SEVERITY_WEIGHTS[o.severity] >= SEVERITY_WEIGHTS[atLeast];

/**
 * Whether reports mark a new occurrence as failing: it trips one of the new-* rules given or, when none is given,
 * it is new at all (the comparison is then the report's point).
 */
export function failsNewOccurrence(o: GateOccurrence, rules: readonly FailOnRule[]): boolean {
  const news = rules.filter((r) => r.kind === 'new');
  return news.length ? news.some((r) => reaches(o, r.atLeast)) : true;
}

export interface RuleVerdict {
  rule: string;
  tripped: boolean;
  /** One line: what the rule found. */
  reason: string;
  /** The new occurrences that trip a new-* rule (empty for score-drop). */
  occurrences: GateOccurrence[];
}

export interface GateVerdict {
  tripped: boolean;
  verdicts: RuleVerdict[];
}

const SEVERITY_WORDS: Record<Severity, string> = {
  CRITICAL: 'CRITICAL (error)',
  WARNING: 'WARNING or CRITICAL',
  NOTICE: '',
};

/** The verdict of each rule on this run's comparison with the baseline, and whether any tripped. */
export function evaluateGate(
  rules: readonly FailOnRule[],
  comparison: OccurrenceComparison,
  scores: { baseline: number | null; current: number },
): GateVerdict {
  const verdicts = rules.map((rule): RuleVerdict => {
    if (rule.kind === 'new') {
      const found = comparison.new.filter((o) => reaches(o, rule.atLeast));
      const what = [String(found.length), 'new', SEVERITY_WORDS[rule.atLeast], 'occurrence(s)']
        .filter(Boolean)
        .join(' ');
      return { rule: rule.name, tripped: found.length > 0, reason: `${rule.name}: ${what}`, occurrences: found };
    }
    if (scores.baseline === null) throw new GateRuleError(`${rule.name} needs the baseline's overall score.`);
    const drop = scores.baseline - scores.current;
    const change = drop > 0 ? `fell by ${drop} point(s)` : drop < 0 ? `rose by ${-drop} point(s)` : 'did not change';
    return {
      rule: rule.name,
      tripped: drop >= rule.points,
      reason: `${rule.name}: the overall score ${change}, from ${scores.baseline} to ${scores.current}`,
      occurrences: [],
    };
  });
  return { tripped: verdicts.some((v) => v.tripped), verdicts };
}
