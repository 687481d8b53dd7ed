import { writeFileSync } from 'node:fs';
import type { AuditCounts, AuditOutcome } from '../audits/index.js';
import { DomainError } from '../platform/errors.js';
import type { Baseline, GateOccurrence } from '../seo/ci-gate/index.js';
import type { BlockerNotice, ScoreBreakdown } from '../seo/scoring/index.js';
import type { CheckFixes } from '../seo/checks/index.js';
import type { AuditCommandOptions } from './audit-types.js';
import { occurrenceLines, type GateInput, type GateResult } from './audit-gate.js';
import type { AuditSettings } from './audit-options.js';
import { lazy, packageVersion, print } from './cli-runtime.js';

type Gate = typeof import('../seo/ci-gate/index.js');
type Audits = typeof import('../audits/index.js');
type Scoring = typeof import('../seo/scoring/index.js');

/** SARIF's driver: who made the results, and where to read about them (the home the crawler's User-Agent names). */
const SARIF_TOOL = { name: 'SEO Audit Platform', informationUri: 'https://github.com/seo-audit-platform' };

/** A completed run, as the outputs read it. */
export interface AuditRun {
  url: string;
  opts: AuditCommandOptions;
  settings: AuditSettings;
  outcome: AuditOutcome;
  /** Up to 5 URLs per check code, and (when kept) every occurrence by code. */
  examples: ReadonlyMap<string, string[]>;
  occurrences: ReadonlyMap<string, { url: string; evidence: unknown }[]>;
  gateInput: GateInput;
  gate: GateResult;
  /** The external link budget of the crawl (the note on links not tried names it). */
  externalLinkBudget: number;
  /** The pages with links past the per-page cap, and how many (the note on links not read names them). */
  linksNotReadPages?: readonly { url: string; linkCount: number; linksNotRead: number }[];
}

type Issue = AuditOutcome['issues'][number];

function issueOf(run: AuditRun, i: Issue, withOccurrences: boolean, scoring: Scoring) {
  return {
    code: i.code,
    title: i.title,
    severity: i.severity,
    category: i.category,
    scope: i.scope,
    affectedPages: i.affectedPages,
    applicablePages: i.applicablePages,
    // A fix-grouped issue: its fixes in one line ("1 target, linked from 78 pages") and the widest with their reach.
    fixes: i.fixes ? cliFixes(i.code, i.fixes, scoring.fixesSummary) : null,
    chargedElsewhere: i.chargedElsewhere ?? 0,
    examples: run.examples.get(i.code) ?? [],
    ...(withOccurrences ? { occurrences: run.occurrences.get(i.code) ?? [] } : {}),
  };
}

/** A fix-grouped issue's fixes as the CLI shows them: in one line, the widest with their reach, and their places. */
function cliFixes(code: string, fixes: CheckFixes, summarize: Scoring['fixesSummary']) {
  const shown = { count: fixes.count, listed: fixes.listed, places: fixes.places.length };
  return { ...shown, summary: summarize(code, shown) };
}

/** Said on stderr in every format: what the scores do not cover, what could not be checked, what compares badly. */
function printNotes(run: AuditRun, baseline: Baseline | null, audits: Audits): void {
  const { outcome, url } = run;
  const { crawl, counts } = outcome;
  if (crawl.truncated)
    process.stderr.write(
      `note: --max-pages ${run.settings.maxPages} stopped the crawl: it covers the first ${outcome.pagesCrawled} of ` +
        `at least ${crawl.pagesDiscovered} URLs found; the scores cover these\n`,
    );
  const external = audits.withNotTried(counts).externalLinks;
  const gaps = audits.externalLinkGaps(external);
  if (gaps.length)
    process.stderr.write(
      `note: ${formatCount(external.checked)} of ${formatCount(external.found)} external links checked ` +
        `(the others are not counted as broken): ${gaps.join(', ')}` +
        (external.overCap ? ` (the audit checks at most ${formatCount(run.externalLinkBudget)})` : '') +
        (crawl.uncheckedLinks.length
          ? `; could not be checked: ${crawl.uncheckedLinks
              .slice(0, 3)
              .map((l) => `${l.url} (${l.reason})`)
              .join(', ')}${crawl.uncheckedLinks.length > 3 ? ', …' : ''}`
          : '') +
        '\n',
    );
  const notRead = linksNotReadLine(run, audits);
  if (notRead) process.stderr.write(`note: ${notRead}\n`);
  if (baseline?.url && URL.canParse(baseline.url) && new URL(baseline.url).origin !== new URL(url).origin)
    process.stderr.write(
      `note: ${baseline.label} audited ${new URL(baseline.url).origin}, this run ${new URL(url).origin}: ` +
        'occurrences are matched by URL, so those on another host all count as new\n',
    );
}

/** The run's result as --json prints it (the issues with their examples; every occurrence with --all-occurrences). */
function resultOf(run: AuditRun, withOccurrences: boolean, audits: Audits, scoring: Scoring) {
  const { outcome } = run;
  return {
    url: run.url,
    status: 'COMPLETED',
    error: null,
    pagesCrawled: outcome.pagesCrawled,
    pagesFailed: outcome.pagesFailed,
    pagesDiscovered: outcome.crawl.pagesDiscovered,
    truncated: outcome.crawl.truncated,
    maxPages: run.settings.maxPages,
    // The counts as GraphQL gives them (withNotTried: the one place their derived numbers are computed).
    counts: audits.withNotTried(outcome.counts),
    uncheckedLinks: outcome.crawl.uncheckedLinks,
    scores: outcome.scores,
    scoreBreakdown: outcome.breakdown,
    issues: outcome.issues.map((i) => issueOf(run, i, withOccurrences, scoring)),
    coreWebVitals: outcome.vitals,
  };
}

const listed = (list: GateOccurrence[]) => ({
  count: list.length,
  occurrences: list.map((o) => ({
    code: o.code,
    severity: o.severity,
    category: o.category,
    title: o.title,
    url: o.url,
  })),
});

/** The change of the overall score since the baseline, when the baseline has one. */
function scoreChangeOf(run: AuditRun) {
  const { baseline } = run.gateInput;
  const overall = run.outcome.scores.overall;
  return baseline && baseline.overall !== null
    ? { baseline: baseline.overall, current: overall, change: overall - baseline.overall }
    : null;
}

/** --format json: the result, and the comparison with the baseline when there is one. */
function printJson(run: AuditRun, result: ReturnType<typeof resultOf>): void {
  const { baseline, rules } = run.gateInput;
  const { comparison, verdict } = run.gate;
  print({
    ...result,
    ...(comparison && baseline && verdict
      ? {
          comparison: {
            baseline: { label: baseline.label, url: baseline.url, overall: baseline.overall },
            score: scoreChangeOf(run),
            new: listed(comparison.new),
            fixed: listed(comparison.fixed),
            unchanged: { count: comparison.unchanged.length },
            gate: {
              rules: rules.map((r) => r.name),
              tripped: verdict.tripped,
              verdicts: verdict.verdicts.map((v) => ({ rule: v.rule, tripped: v.tripped, reason: v.reason })),
            },
          },
        }
      : {}),
  });
}

/** The text report: counts, coverage, scores and why, the issues, and the comparison with the baseline. */
async function printText(run: AuditRun, issues: ReturnType<typeof resultOf>['issues']): Promise<void> {
  const { outcome, url } = run;
  const { counts } = outcome;
  const s = outcome.scores;
  process.stdout.write(
    `${url}: ${countsLine(counts)}` +
      `${outcome.pagesFailed ? ` (${formatCount(outcome.pagesFailed)} could not be fetched)` : ''}\n`,
  );
  process.stdout.write(`${coverageLine(counts, await lazy.audits())}\n`);
  process.stdout.write(
    `overall ${s.overall}  meta ${s.meta}  content ${s.content}  links ${s.links}  ` +
      `technical ${s.technical}  performance ${s.performance}\n`,
  );
  const { blockerNotices, fixesSummary } = await lazy.scoring();
  process.stdout.write(`${scoreWhy(outcome.breakdown, blockerNotices(outcome.breakdown), fixesSummary)}\n\n`);
  for (const i of issues)
    process.stdout.write(
      `${i.severity.padEnd(8)} ${i.code.padEnd(28)} ${affectedLabel(i).padStart(12)}  ${i.title}` +
        (i.fixes ? ` (${i.fixes.summary})` : '') +
        '\n',
    );
  const { comparison } = run.gate;
  const { baseline } = run.gateInput;
  if (comparison && baseline) {
    const scoreChange = scoreChangeOf(run);
    const change = scoreChange
      ? `; overall ${scoreChange.baseline} -> ${scoreChange.current} ` +
        `(${scoreChange.change > 0 ? '+' : ''}${scoreChange.change})`
      : '';
    process.stdout.write(
      `\ncompared with ${baseline.label}: ${comparison.new.length} new, ${comparison.fixed.length} fixed, ` +
        `${comparison.unchanged.length} unchanged occurrence(s)${change}\n`,
    );
    if (comparison.new.length) process.stdout.write(`new:\n${occurrenceLines(comparison.new)}`);
    if (comparison.fixed.length) process.stdout.write(`fixed:\n${occurrenceLines(comparison.fixed)}`);
  }
}

/** Everything a completed run prints (and --write-json writes), in the format asked for. */
export async function printAuditRun(run: AuditRun, gate: Gate): Promise<void> {
  const { opts, settings } = run;
  const [audits, scoring] = await Promise.all([lazy.audits(), lazy.scoring()]);
  printNotes(run, run.gateInput.baseline, audits);
  const result = resultOf(run, Boolean(opts.allOccurrences), audits, scoring);
  if (opts.writeJson) {
    try {
      writeFileSync(opts.writeJson, `${JSON.stringify(resultOf(run, true, audits, scoring), null, 2)}\n`);
    } catch (err) {
      throw new DomainError('BAD_USER_INPUT', `--write-json ${opts.writeJson}: ${(err as Error).message}`);
    }
  }
  const { current, comparison, verdict, failUnder } = run.gate;
  if (settings.format === 'json') printJson(run, result);
  else if (settings.format === 'sarif') {
    print(
      gate.buildSarifLog({
        tool: { ...SARIF_TOOL, version: packageVersion() },
        occurrences: current,
        comparison,
        uris: opts.sarifUris ?? 'absolute',
      }),
    );
  } else if (settings.format === 'junit') {
    process.stdout.write(
      gate.buildJunitXml({
        name: `seo audit ${run.url}`,
        occurrences: current,
        comparison,
        rules: run.gateInput.rules,
        checks: [
          ...(verdict?.verdicts ?? []).map((v) => ({ name: v.rule, tripped: v.tripped, reason: v.reason })),
          ...(failUnder ? [failUnder] : []),
        ],
      }),
    );
  } else await printText(run, result.issues);
}

/** 1,170: counts in human output are grouped by thousands, as in the app and the PDF. */
function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1,170 URLs crawled · 1,169 HTML pages · 1,169 indexable": the three counts, named as on every surface. */
function countsLine(c: AuditCounts): string {
  const urls = `${formatCount(c.urlsCrawled)} URL${c.urlsCrawled === 1 ? '' : 's'} crawled`;
  const pages = `${formatCount(c.htmlPages)} HTML page${c.htmlPages === 1 ? '' : 's'}`;
  return `${urls} · ${pages} · ${formatCount(c.indexablePages)} indexable`;
}

/** What the audit checked of what it found, each cap as "N of M", and the links a page's cap left unread. */
function coverageLine(c: AuditCounts, audits: Audits): string {
  const counts = audits.withNotTried(c);
  const e = counts.externalLinks;
  const unchecked = audits.externalLinkGaps(e);
  const notRead = audits.linksNotReadNote(counts.links);
  return (
    `checked: external links ${formatCount(e.checked)} of ${formatCount(e.found)}` +
    (unchecked.length ? ` (${unchecked.join(', ')})` : '') +
    ` · resources ${formatCount(c.resources.checked)} of ${formatCount(c.resources.found)}` +
    ` · lab vitals ${formatCount(c.labPages.measured)} of ${formatCount(c.labPages.eligible)} pages` +
    (notRead === null ? '' : ` · ${notRead}`)
  );
}

/**
 * The links a page's cap left unread, with up to 3 of their pages: "2,000 links past the per-page cap on 1 page were
 * not checked (https://example.com/index: 12,000 links; 2,000 past the 10,000 read were not checked)".
 */
function linksNotReadLine(run: AuditRun, audits: Audits): string | null {
  const note = audits.linksNotReadNote(audits.withNotTried(run.outcome.counts).links);
  if (note === null) return null;
  const pages = run.linksNotReadPages ?? [];
  const named = pages.slice(0, 3).map((p) => `${p.url}: ${audits.pageLinksNote(p.linkCount, p.linksNotRead)}`);
  return `${note}${named.length ? ` (${named.join('; ')}${pages.length > 3 ? '; …' : ''})` : ''}`;
}

/**
 * An issue's extent: its affected pages ("1,170 pages"), or "site" for a site-level check (charged once), with the
 * pages it names when there are several ("site, 4 pages": duplicate titles).
 */
function affectedLabel(i: { scope: string; affectedPages: number }): string {
  const pages = `${formatCount(i.affectedPages)} page${i.affectedPages === 1 ? '' : 's'}`;
  if (i.scope === 'site') return i.affectedPages > 1 ? `site, ${pages}` : 'site';
  return pages;
}

/**
 * The "why this score" line: health, the blocker cap, and the breakdown's first three costs (what takes most off the
 * overall score first: docs/scores.md), a fix-grouped one with its fixes.
 */
function scoreWhy(b: ScoreBreakdown, blockers: readonly BlockerNotice[], summarize: Scoring['fixesSummary']): string {
  const top = b.costs
    .slice(0, 3)
    .map(
      (c) =>
        `${c.code} -${Number(c.points.toFixed(1))} ${c.category.toLowerCase()}` +
        (c.fixes ? ` (${summarize(c.code, c.fixes)})` : ''),
    )
    .join(', ');
  return (
    `health ${b.health}% (${formatCount(b.htmlPages - b.pagesWithCritical)} of ${formatCount(b.htmlPages)} HTML ` +
    `page${b.htmlPages === 1 ? '' : 's'} without a critical issue` +
    (b.pagesShownWorse ? `, ${formatCount(b.pagesShownWorse)} counting 2/3: on-page basics missing` : '') +
    ')' +
    (b.cappedFrom !== null ? `; capped at 50 from ${b.cappedFrom}: ${blockers.map((n) => n.message).join(' ')}` : '') +
    (top ? `; first: ${top}` : '')
  );
}
