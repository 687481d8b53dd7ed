import { existsSync, readFileSync } from 'node:fs';
import type { AuditOutcome } from '../audits/index.js';
import type { AppConfig } from '../platform/config.js';
import { DomainError } from '../platform/errors.js';
import type { Baseline, FailOnRule, GateOccurrence, GateVerdict, OccurrenceComparison } from '../seo/ci-gate/index.js';
import type { AuditCommandOptions } from './audit-types.js';
import { EXIT, lazy, withOrm, type CliRoot } from './cli-runtime.js';

type Gate = typeof import('../seo/ci-gate/index.js');

/** Lines of occurrences the text report and the gate's message print at most (--format json lists them all). */
const LISTED_AT_MOST = 50;

/** The CI gate's input: the --fail-on rules and the --baseline they judge against. */
export interface GateInput {
  rules: FailOnRule[];
  baseline: Baseline | null;
}

/** What the gate found of a run: its occurrences, compared with the baseline, and each rule's verdict. */
export interface GateResult {
  /** Each occurrence with its issue's severity as this run found it (what the platform stores and shows). */
  current: GateOccurrence[];
  comparison: OccurrenceComparison | null;
  verdict: GateVerdict | null;
  failUnder: { name: string; tripped: boolean; reason: string } | null;
}

/**
 * --baseline: a JSON file (the CLI's `--json --all-occurrences` output, the platform's report of one audit or its
 * issues export), or the id of a completed audit in the platform's database. Whatever keeps it from being compared
 * with is bad usage (exit code 2), before anything is crawled.
 */
async function loadBaseline(root: CliRoot, cfg: AppConfig, ref: string): Promise<Baseline> {
  const { parseBaselineDocument, BaselineDocumentError } = await lazy.ciGate();
  const usage = (message: string) => new DomainError('BAD_USER_INPUT', `--baseline ${ref}: ${message}`);
  if (existsSync(ref) || !(await import('../platform/ids.js')).isUuid(ref)) {
    let text: string;
    try {
      text = readFileSync(ref, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw usage(code === 'ENOENT' ? 'no such file (nor an audit id)' : (err as Error).message);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw usage('not JSON');
    }
    try {
      return parseBaselineDocument(doc, ref);
    } catch (err) {
      if (err instanceof BaselineDocumentError) throw usage(err.message);
      throw err;
    }
  }
  try {
    const stored = await withOrm(root, cfg, async (orm) => (await lazy.audits()).readAuditBaseline(orm.em.fork(), ref));
    return { label: `audit ${ref}`, url: stored.url, overall: stored.overallScore, occurrences: stored.occurrences };
  } catch (err) {
    if (err instanceof DomainError) throw usage(err.message);
    // No database to read it from is no baseline either: exit code 2, never 1 (which says the gate tripped). The
    // driver's message ends with the cause, after the statement it quotes.
    const cause = (err instanceof Error ? err.message : String(err)).split(' - ').pop();
    throw usage(`the audit could not be read from the database (${cause})`);
  }
}

/** The rules and the baseline, checked before anything is crawled: a gate that cannot judge is bad usage. */
export async function prepareGate(
  root: CliRoot,
  cfg: AppConfig,
  opts: AuditCommandOptions,
  gate: Gate,
): Promise<GateInput> {
  let rules: FailOnRule[];
  let baseline: Baseline | null = null;
  try {
    rules = gate.mergeRules(...(opts.failOn ?? []).map((value) => gate.parseFailOn(value)));
    if (!opts.baseline) gate.assertRulesApplicable(rules, null);
    if (opts.baseline) baseline = await loadBaseline(root, cfg, opts.baseline);
    gate.assertRulesApplicable(rules, baseline);
  } catch (err) {
    if (err instanceof gate.GateRuleError) throw new DomainError('BAD_USER_INPUT', err.message);
    throw err;
  }
  return { rules, baseline };
}

/** The run judged: its occurrences against the baseline, the --fail-on rules and --fail-under. */
export function judgeRun(
  gate: Gate,
  input: GateInput,
  outcome: AuditOutcome,
  occurrences: ReadonlyMap<string, { url: string; evidence: unknown }[]>,
  failUnderAt: number | undefined,
): GateResult {
  const { rules, baseline } = input;
  const current: GateOccurrence[] = outcome.issues.flatMap((i) =>
    (occurrences.get(i.code) ?? []).map((o) => ({
      code: i.code,
      url: o.url,
      severity: i.severity,
      title: i.title,
      category: i.category,
      evidence: o.evidence,
    })),
  );
  const comparison = baseline ? gate.compareOccurrences(baseline.occurrences, current) : null;
  const verdict =
    baseline && comparison
      ? gate.evaluateGate(rules, comparison, { baseline: baseline.overall, current: outcome.scores.overall })
      : null;
  const failUnder =
    failUnderAt === undefined
      ? null
      : {
          name: `fail-under:${failUnderAt}`,
          tripped: outcome.scores.overall < failUnderAt,
          reason: `the overall score ${outcome.scores.overall} is ${
            outcome.scores.overall < failUnderAt ? 'below' : 'at or above'
          } --fail-under ${failUnderAt}`,
        };
  return { current, comparison, verdict, failUnder };
}

/** A tripped gate: why, on stderr, and exit code 1. */
export function reportGate(result: GateResult, outcome: AuditOutcome, failUnderAt: number | undefined): void {
  if (result.failUnder?.tripped) {
    console.error(`seo audit: overall score ${outcome.scores.overall} is below --fail-under ${failUnderAt}`);
    process.exitCode = EXIT.gate;
  }
  for (const v of result.verdict?.verdicts ?? []) {
    if (!v.tripped) continue;
    process.stderr.write(`seo audit: --fail-on ${v.reason}\n${occurrenceLines(v.occurrences)}`);
    process.exitCode = EXIT.gate;
  }
}

/** `  CRITICAL META_TITLE_MISSING           https://…` lines, at most LISTED_AT_MOST, then how many more. */
export function occurrenceLines(list: readonly GateOccurrence[], prefix = '  '): string {
  const shown = list
    .slice(0, LISTED_AT_MOST)
    .map((o) => `${prefix}${o.severity.padEnd(8)} ${o.code.padEnd(28)} ${o.url}\n`)
    .join('');
  const more = list.length - LISTED_AT_MOST;
  return more > 0 ? `${shown}${prefix}… and ${more} more (--format json lists every one)\n` : shown;
}
