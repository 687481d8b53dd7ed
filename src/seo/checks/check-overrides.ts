/**
 * Per-project check settings as the audit applies them (project_check_setting rows, snapshotted into the audit's
 * score breakdown): a check may be switched off, or given another severity.
 *
 * - Disabled: the check is not reported. Its results are dropped before they are aggregated, so it has no issue, no
 *   occurrences, no cost in its category, does not count as applied or passed, does not make a page "with a
 *   CRITICAL issue" for health and, for a site-wide blocker (TECH_ROBOTS_BLOCKS_ALL...), does not cap the score.
 * - Severity: every failing result of the check carries the overridden severity, so the issue shows it and the score
 *   formula prices it as that severity (page-level cost 100 × weight(severity) × affected / HTML pages, site-level
 *   the fixed cost of that severity, health counts the pages where a check set to CRITICAL fails).
 * - Banded checks (PERF_LCP, PERF_CLS...): their severity is the band the measured value fell in (NOTICE above the
 *   first threshold, WARNING above the second), so it cannot be overridden; they can be disabled.
 */
import { findCheck, type CheckDefinition, type Severity } from './check-catalog.js';
import type { CheckAggregate, CheckResult, SiteCheckResult } from './check-results.js';

/** One code's override; `severity` null keeps the catalog's. */
export interface CheckOverride {
  code: string;
  enabled: boolean;
  severity: Severity | null;
}

/** Why an override cannot be stored for this code and severity, or null when it can. */
export function overrideProblem(code: string, severity: Severity | null | undefined): string | null {
  const check = findCheck(code);
  if (!check)
    return `Unknown check code "${code.slice(0, 100)}": see the check catalog (query checks, GET /api/checks).`;
  if (severity && check.banded && severity !== check.severity)
    return (
      `${code} is a banded check: its severity follows the measured value (NOTICE, then WARNING above the ` +
      'second threshold) and cannot be overridden; it can only be disabled.'
    );
  return null;
}

/** Whether an override changes nothing (enabled, catalog severity): stored as no row at all. */
export function isDefaultOverride(check: CheckDefinition, enabled: boolean, severity: Severity | null): boolean {
  return enabled && (severity === null || severity === check.severity);
}

/** The overrides of one audit, applied to check results before they are aggregated and to the aggregates. */
export class CheckOverrides {
  private readonly disabled = new Set<string>();
  private readonly severities = new Map<string, Severity>();
  /** The overrides that apply (unknown codes, and banded severities, left out), sorted by code. */
  readonly applied: readonly CheckOverride[];

  constructor(overrides: readonly CheckOverride[] = []) {
    const applied: CheckOverride[] = [];
    for (const o of overrides) {
      const check = findCheck(o.code);
      if (!check) continue;
      const severity = o.severity && !check.banded && o.severity !== check.severity ? o.severity : null;
      if (!o.enabled) this.disabled.add(o.code);
      else if (severity) this.severities.set(o.code, severity);
      else continue;
      applied.push({ code: o.code, enabled: o.enabled, severity: o.enabled ? severity : null });
    }
    this.applied = applied.sort((a, b) => a.code.localeCompare(b.code));
  }

  get empty(): boolean {
    return this.applied.length === 0;
  }

  isDisabled(code: string): boolean {
    return this.disabled.has(code);
  }

  /** The severity a failing result of `code` has: the override, else what the evaluator said, else the catalog's. */
  severityOf(code: string, measured?: Severity): Severity | undefined {
    return this.severities.get(code) ?? measured;
  }

  /** Page results without the disabled checks, failing ones with their overridden severity. */
  pageResults(results: readonly CheckResult[]): readonly CheckResult[] {
    if (this.empty) return results;
    const out: CheckResult[] = [];
    for (const result of results) {
      if (this.disabled.has(result.code)) continue;
      const severity = this.severities.get(result.code);
      out.push(severity ? { ...result, severity } : result);
    }
    return out;
  }

  /** Site results without the disabled checks (their severity is set on the aggregate). */
  siteResults(results: readonly SiteCheckResult[]): SiteCheckResult[] {
    return results.filter((result) => !this.disabled.has(result.code));
  }

  /** Aggregates without the disabled checks, with the overridden severities. */
  aggregates(aggregates: readonly CheckAggregate[]): CheckAggregate[] {
    const out: CheckAggregate[] = [];
    for (const aggregate of aggregates) {
      if (this.disabled.has(aggregate.code)) continue;
      const severity = this.severities.get(aggregate.code);
      if (!severity) out.push(aggregate);
      else {
        // Every failing page is then at the overridden severity.
        const { affectedBySeverity: _bands, ...rest } = aggregate;
        out.push({ ...rest, severity });
      }
    }
    return out;
  }
}

/** How one code's setting differs between two audits' settings (CheckOverrides.applied of each). */
export interface CheckSettingChange {
  code: string;
  /** The catalog's title, or the code for a code the catalog no longer has. */
  title: string;
  /** DISABLED: run before, off after; ENABLED: off before, run after; SEVERITY: run by both at another severity. */
  change: 'DISABLED' | 'ENABLED' | 'SEVERITY';
  /** The severity it was charged at on each side; null where it was disabled. */
  severityBefore: Severity | null;
  severityAfter: Severity | null;
}

/**
 * What changed between the check settings two audits were scored with (absent: the catalog's settings), in code
 * order. An empty list: both were scored alike, and their scores compare.
 */
export function checkSettingChanges(
  before: readonly CheckOverride[] | null | undefined,
  after: readonly CheckOverride[] | null | undefined,
): CheckSettingChange[] {
  const of = (list: readonly CheckOverride[] | null | undefined) => new Map((list ?? []).map((o) => [o.code, o]));
  const [b, a] = [of(before), of(after)];
  const codes = [...new Set([...b.keys(), ...a.keys()])].sort();
  const changes: CheckSettingChange[] = [];
  for (const code of codes) {
    const check = findCheck(code);
    // The severity in force: null when disabled, else the override's, else the catalog's.
    const severity = (o: CheckOverride | undefined): Severity | null =>
      o && !o.enabled ? null : (o?.severity ?? check?.severity ?? null);
    const [sb, sa] = [severity(b.get(code)), severity(a.get(code))];
    if (sb === sa) continue;
    const change = sa === null ? 'DISABLED' : sb === null ? 'ENABLED' : 'SEVERITY';
    changes.push({ code, title: check?.title ?? code, change, severityBefore: sb, severityAfter: sa });
  }
  return changes;
}

/** A setting change in words: "Page served over HTTP (TECH_HTTP_PAGE) disabled". */
export function describeSettingChange(c: CheckSettingChange): string {
  const what = `${c.title} (${c.code})`;
  if (c.change === 'DISABLED') return `${what} disabled`;
  if (c.change === 'ENABLED') return `${what} enabled`;
  return `${what} ${c.severityBefore} → ${c.severityAfter}`;
}
