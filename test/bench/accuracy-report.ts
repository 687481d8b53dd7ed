import { UNMAPPED_CODES } from './accuracy-lighthouse.js';
import type { Review } from './accuracy-verdicts.js';

export interface Disagreement {
  site: string;
  audit: string;
  url: string;
  ours: 'pass' | 'fail';
  lighthouse: 'pass' | 'fail';
  /** Our codes that fired on the page (none when we passed it). */
  ourCodes: string[];
  /** Lighthouse's explanation or failing items, when it failed the page. */
  lighthouseSays: string;
  review: Review | null;
}

export interface LinkComparison {
  ours: number;
  linkinator: number;
  both: number;
  precision: number;
  recall: number;
  /** The same after the reviewed differences (accuracy-verdicts.ts) are settled for the side that is right. */
  reviewedPrecision: number;
  reviewedRecall: number;
  onlyOurs: { url: string; page: string; review: Review | null }[];
  onlyLinkinator: { url: string; page: string; review: Review | null }[];
  /** Targets linkinator could not fetch at all (status 0): judged by neither side's comparison. */
  linkinatorFailed: { url: string; page: string }[];
}

export interface SiteAccuracy {
  site: string;
  root: string;
  ourPages: number;
  /** Our crawled HTML pages (the audit's counts), beside linkinator's reachable HTML files. */
  ourHtmlPages: number | null;
  ourScore: number | null;
  linkinatorPages: number;
  sampled: number;
  perAudit: { id: string; agree: number; judged: number }[];
  disagreements: Disagreement[];
  links: LinkComparison;
  lighthouseErrors: string[];
  /** Our codes near a Lighthouse audit whose rule differs (UNMAPPED_CODES): the pages they fired on, not compared. */
  unmapped: { code: string; pages: number }[];
}

export interface AccuracyReport {
  sites: SiteAccuracy[];
  sampleSize: number;
  chromium: string;
  versions: { lighthouse: string; linkinator: string };
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');

export const AGREEMENT_GOAL = 0.99;

/** The people's table (stderr-free text) and the machine's JSON line. */
export function formatAccuracyReport(report: AccuracyReport): { text: string; json: object } {
  const lines: string[] = [];
  lines.push(
    `Accuracy: our findings against Lighthouse ${report.versions.lighthouse} (SEO category, ${report.sampleSize} ` +
      `pages per site) and linkinator ${report.versions.linkinator} (broken same-site links, whole site)`,
  );
  const audits = report.sites[0]?.perAudit.map((a) => a.id) ?? [];
  const header = ['audit', ...report.sites.map((s) => s.site), 'all'];
  lines.push('', header.map((h, i) => (i === 0 ? h.padEnd(18) : h.padStart(14))).join(''));
  let agreeAll = 0;
  let judgedAll = 0;
  for (const id of audits) {
    let agree = 0;
    let judged = 0;
    const cells = report.sites.map((s) => {
      const a = s.perAudit.find((p) => p.id === id)!;
      agree += a.agree;
      judged += a.judged;
      return a.judged ? `${a.agree}/${a.judged}` : 'n/a';
    });
    agreeAll += agree;
    judgedAll += judged;
    lines.push([id.padEnd(18), ...cells.map((c) => c.padStart(14)), pct(agree, judged).padStart(14)].join(''));
  }
  const agreement = judgedAll ? agreeAll / judgedAll : 1;
  lines.push(
    `${'agreement'.padEnd(18)}${report.sites
      .map((s) => {
        const a = s.perAudit.reduce((sum, p) => sum + p.agree, 0);
        const j = s.perAudit.reduce((sum, p) => sum + p.judged, 0);
        return pct(a, j).padStart(14);
      })
      .join('')}${pct(agreeAll, judgedAll).padStart(14)}   goal ≥ ${AGREEMENT_GOAL * 100}%: ${
      agreement >= AGREEMENT_GOAL ? 'met' : 'NOT met'
    }`,
  );
  lines.push(
    '',
    'site'.padEnd(14) +
      'our URLs'.padStart(10) +
      'our HTML'.padStart(10) +
      'linkinator'.padStart(12) +
      'score'.padStart(7) +
      'broken: ours'.padStart(14) +
      'linkinator'.padStart(12) +
      'both'.padStart(6) +
      'P'.padStart(8) +
      'R'.padStart(8) +
      'P reviewed'.padStart(12) +
      'R reviewed'.padStart(12),
  );
  for (const s of report.sites) {
    const l = s.links;
    lines.push(
      s.site.padEnd(14) +
        String(s.ourPages).padStart(10) +
        String(s.ourHtmlPages ?? '—').padStart(10) +
        String(s.linkinatorPages).padStart(12) +
        String(s.ourScore ?? '—').padStart(7) +
        String(l.ours).padStart(14) +
        String(l.linkinator).padStart(12) +
        String(l.both).padStart(6) +
        pct(l.precision, 1).padStart(8) +
        pct(l.recall, 1).padStart(8) +
        pct(l.reviewedPrecision, 1).padStart(12) +
        pct(l.reviewedRecall, 1).padStart(12),
    );
  }
  const linksOk = report.sites.every((s) => s.links.reviewedPrecision === 1 && s.links.reviewedRecall === 1);
  const linksRaw = report.sites.every((s) => s.links.precision === 1 && s.links.recall === 1);
  lines.push(
    `broken links goal P = R = 100%: ${linksOk ? 'met' : 'NOT met'} after review` +
      `${linksRaw ? ', and as measured' : ' (not as measured: the differences are listed below)'}`,
  );
  const disagreements = report.sites.flatMap((s) => s.disagreements);
  const who = (review: Review | null) => (review ? `${review.right} right: ${review.why}` : 'not reviewed');
  lines.push('', `Disagreements with Lighthouse (${disagreements.length}):`);
  for (const d of disagreements) {
    lines.push(
      `- ${d.site} ${d.audit} ${d.url}: ours ${d.ours}${d.ourCodes.length ? ` (${d.ourCodes.join(', ')})` : ''}, ` +
        `Lighthouse ${d.lighthouse}${d.lighthouseSays ? ` (${d.lighthouseSays.slice(0, 200)})` : ''} ` +
        `— ${who(d.review)}`,
    );
  }
  lines.push('', 'Our checks near a Lighthouse audit with another rule (not compared):');
  for (const u of UNMAPPED_CODES) {
    const fired = report.sites.map((s) => `${s.site} ${s.unmapped.find((x) => x.code === u.code)?.pages ?? 0}`);
    lines.push(`- ${u.code} (near ${u.near}): ${u.why}; pages: ${fired.join(', ')}`);
  }
  lines.push('', 'Broken links one side reports:');
  for (const s of report.sites) {
    for (const x of s.links.onlyOurs)
      lines.push(`- ${s.site} only ours: ${x.url} (linked from ${x.page}) — ${who(x.review)}`);
    for (const x of s.links.onlyLinkinator)
      lines.push(`- ${s.site} only linkinator: ${x.url} (linked from ${x.page}) — ${who(x.review)}`);
    for (const x of s.links.linkinatorFailed)
      lines.push(`- ${s.site} linkinator could not fetch ${x.url} (status 0; linked from ${x.page}): not compared`);
    for (const e of s.lighthouseErrors) lines.push(`- ${s.site} Lighthouse could not judge ${e}`);
  }
  const json = {
    bench: 'accuracy',
    agreement,
    agreementGoalMet: agreement >= AGREEMENT_GOAL,
    linksGoalMet: linksOk,
    linksGoalMetAsMeasured: linksRaw,
    versions: report.versions,
    sites: report.sites.map((s) => ({
      site: s.site,
      ourPages: s.ourPages,
      ourHtmlPages: s.ourHtmlPages,
      linkinatorPages: s.linkinatorPages,
      ourScore: s.ourScore,
      sampled: s.sampled,
      perAudit: s.perAudit,
      links: {
        ...s.links,
        onlyOurs: s.links.onlyOurs.length,
        onlyLinkinator: s.links.onlyLinkinator.length,
        linkinatorFailed: s.links.linkinatorFailed.length,
      },
      disagreements: s.disagreements.length,
      unreviewed: s.disagreements.filter((d) => !d.review).length,
    })),
  };
  return { text: lines.join('\n'), json };
}
