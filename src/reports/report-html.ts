import type { ClientReportType, ReportVitalsType } from './report.types.js';
import { externalLinkGaps, linksNotReadNote } from '../audits/index.js';
import { escapeHtml } from '../platform/html-escape.js';

/**
 * The client report as one self-contained HTML document for the PDF: made here from the report's data, every
 * value escaped (titles, URLs and evidence come from crawled sites), no script, no external resource — the
 * renderer blocks every request anyway.
 */

const CATEGORY_LABEL: Record<string, string> = {
  META: 'Meta',
  CONTENT: 'Content',
  LINKS: 'Links',
  TECHNICAL: 'Technical',
  PERFORMANCE: 'Performance',
};
const categoryLabel = (category: string) => CATEGORY_LABEL[category] ?? category;
const sourceLabel = (source: string) =>
  source === 'LAB' ? 'lab (Chromium)' : source === 'HTTP' ? 'HTTP only' : source;
const SEVERITY_LABEL: Record<string, string> = { CRITICAL: 'Critical', WARNING: 'Warning', NOTICE: 'Notice' };

const date = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '—');
const score = (n: number | null) => (n === null ? '—' : String(n));
const ms = (n: number | null) => (n === null ? '—' : `${Math.round(n).toLocaleString('en-US')} ms`);
const cls = (n: number | null) => (n === null ? '—' : n.toFixed(3));
/** 1,170: counts grouped by thousands, as the app and the CLI print them. */
const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** A site-level issue reads "site" (with its pages when it names several), a page-level one its pages. */
const extent = (i: { scope: string; affectedPages: number }) =>
  i.scope !== 'site'
    ? plural(i.affectedPages, 'page')
    : i.affectedPages > 1
      ? `site, ${plural(i.affectedPages, 'page')}`
      : 'site';

/** "1,170 URLs crawled · 1,169 HTML pages · 1,169 indexable", and the caps as N of M (docs/counts.md). */
function countsText(audit: NonNullable<ClientReportType['audit']>): { pages: string; checked: string | null } {
  const c = audit.counts;
  if (!c) return { pages: `${plural(audit.pagesCrawled, 'URL')} crawled`, checked: null };
  const e = c.externalLinks;
  const unchecked = externalLinkGaps(e);
  const notRead = linksNotReadNote(c.links);
  return {
    pages:
      `${plural(c.urlsCrawled, 'URL')} crawled · ${plural(c.htmlPages, 'HTML page')} · ` +
      `${count(c.indexablePages)} indexable`,
    checked:
      `Checked: external links ${count(e.checked)} of ${count(e.found)}` +
      (unchecked.length ? ` (${unchecked.join(', ')})` : '') +
      ` · resources ${count(c.resources.checked)} of ${count(c.resources.found)}` +
      ` · lab vitals ${count(c.labPages.measured)} of ${plural(c.labPages.eligible, 'page')}` +
      (notRead === null ? '' : ` · ${notRead}`) +
      '.',
  };
}

/** Google's thresholds (good / poor), as the technical page draws them. */
const BANDS: Record<string, [number, number]> = {
  lcpMs: [2500, 4000],
  cls: [0.1, 0.25],
  inpMs: [200, 500],
  tbtMs: [200, 600],
  fcpMs: [1800, 3000],
  ttfbMs: [800, 1800],
};
function band(key: keyof typeof BANDS, value: number | null): string {
  if (value === null) return '';
  const [good, poor] = BANDS[key];
  return value <= good ? 'good' : value <= poor ? 'ni' : 'poor';
}
const vitalCell = (v: ReportVitalsType, key: keyof typeof BANDS) => {
  const value = v[key as keyof ReportVitalsType] as number | null;
  const b = band(key, value);
  const text = escapeHtml(key === 'cls' ? cls(value) : ms(value));
  const label = b ? ` <span class="band">(${b === 'ni' ? 'needs improvement' : b})</span>` : '';
  return `<td class="num ${b}">${text}${label}</td>`;
};

const STYLE = `
  @page { size: A4; margin: 16mm 14mm; }
  * { box-sizing: border-box; }
  body { font-family: "DejaVu Sans", Arial, sans-serif; color: #1a1a1a; font-size: 10.5pt; line-height: 1.4;
    margin: 0; }
  h1 { font-size: 20pt; margin: 0 0 2mm; }
  h2 { font-size: 13pt; margin: 7mm 0 2mm; border-bottom: 1px solid #ccc; padding-bottom: 1mm; break-after: avoid; }
  h3 { font-size: 11pt; margin: 0 0 1mm; }
  p { margin: 0 0 2mm; }
  .muted { color: #555; }
  table { width: 100%; border-collapse: collapse; margin: 0 0 3mm; }
  th, td { text-align: left; padding: 1.2mm 1.5mm; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
  th { background: #f3f3f3; font-weight: 600; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  .scores { display: flex; flex-wrap: wrap; gap: 3mm; margin: 3mm 0; }
  .score { border: 1px solid #ccc; border-radius: 2mm; padding: 2mm 3mm; min-width: 27mm; }
  .score strong { display: block; font-size: 16pt; }
  .issue { border: 1px solid #ddd; border-radius: 2mm; padding: 2.5mm 3mm; margin: 0 0 3mm; break-inside: avoid; }
  .sev { font-weight: 700; }
  .sev-CRITICAL { color: #a40000; } .sev-WARNING { color: #8a5300; } .sev-NOTICE { color: #1f4e8c; }
  .url { word-break: break-all; font-size: 9pt; }
  ul { margin: 1mm 0 2mm; padding-left: 5mm; }
  .good { color: #1d6b2f; } .ni { color: #8a5300; } .poor { color: #a40000; }
  .band { font-size: 8pt; }
  .blockers { border: 2px solid #a40000; border-radius: 2mm; padding: 2mm 3mm; margin: 3mm 0; }
  .blockers h2 { color: #a40000; border: 0; margin-top: 0; }
`;

export function clientReportHtml(r: ClientReportType): string {
  const parts: string[] = [];
  const audit = r.audit;
  parts.push(
    `<header><h1>SEO report: ${escapeHtml(r.projectName)}</h1>`,
    `<p class="muted">${escapeHtml(r.url)} · generated ${escapeHtml(date(r.generatedAt))}</p></header>`,
  );
  if (!audit) {
    parts.push('<p>This project has no completed audit yet.</p>');
  } else {
    const counted = countsText(audit);
    parts.push(
      `<p>Audit of ${escapeHtml(date(audit.completedAt ?? audit.createdAt))}: overall score ` +
        `${audit.scores.overall === null ? 'not available' : `${audit.scores.overall}/100`}; ` +
        `${escapeHtml(counted.pages)}; ` +
        `${audit.issueCounts.critical} critical, ${audit.issueCounts.warning} warning and ` +
        `${audit.issueCounts.notice} notice issue types.</p>`,
      counted.checked ? `<p class="muted">${escapeHtml(counted.checked)}</p>` : '',
      ...(audit.blockers.length
        ? [
            '<section class="blockers"><h2>This site cannot be indexed: the overall score is capped at 50</h2><ul>',
            ...audit.blockers.map((b) => `<li>${escapeHtml(b.message)}</li>`),
            '</ul></section>',
          ]
        : []),
      '<section><h2>Scores</h2><div class="scores">',
      `<div class="score">Overall score<strong>${score(audit.scores.overall)}</strong></div>`,
      ...r.categories.map(
        (c) => `<div class="score">${escapeHtml(categoryLabel(c.category))}<strong>${score(c.score)}</strong></div>`,
      ),
      '</div></section>',
      '<section><h2>Category breakdown</h2><table><thead><tr><th>Category</th><th class="num">Score</th>' +
        '<th class="num">Critical</th><th class="num">Warning</th><th class="num">Notice</th></tr></thead><tbody>',
      ...r.categories.map(
        (c) =>
          `<tr><td>${escapeHtml(categoryLabel(c.category))}</td><td class="num">${score(c.score)}</td>` +
          `<td class="num">${c.critical}</td><td class="num">${c.warning}</td><td class="num">${c.notice}</td></tr>`,
      ),
      '</tbody></table></section>',
    );
    if (r.segments.length)
      parts.push(
        '<section><h2>Segments</h2><table><thead><tr><th>Segment</th><th class="num">URLs</th>' +
          '<th class="num">Score</th><th class="num">Health</th><th class="num">Critical</th>' +
          '<th class="num">Warning</th><th class="num">Notice</th></tr></thead><tbody>',
        ...r.segments.map(
          (s) =>
            `<tr><td>${escapeHtml(s.segment.name)}</td><td class="num">${s.urls}</td>` +
            `<td class="num">${s.scores.overall}</td><td class="num">${s.health}%</td>` +
            `<td class="num">${s.issueCounts.critical}</td><td class="num">${s.issueCounts.warning}</td>` +
            `<td class="num">${s.issueCounts.notice}</td></tr>`,
        ),
        '</tbody></table></section>',
      );
    parts.push('<section><h2>Top issues and how to fix them</h2>');
    if (!r.topIssues.length) parts.push('<p>No issues: every check passed on every crawled page.</p>');
    for (const i of r.topIssues) {
      parts.push(
        `<div class="issue"><h3><span class="sev sev-${escapeHtml(i.severity)}">` +
          `${escapeHtml(SEVERITY_LABEL[i.severity] ?? i.severity)}</span> · ` +
          `${escapeHtml(i.title)}</h3>`,
        `<p class="muted">${escapeHtml(categoryLabel(i.category))} · ` +
          `${extent(i)}${i.fixesSummary ? ` · ${escapeHtml(i.fixesSummary)}` : ''} · check ${escapeHtml(i.code)}</p>`,
        `<p>${escapeHtml(i.description)}</p>`,
      );
      // A fix-grouped issue: its widest fixes (a target, the pages linking to it) say what to fix better than pages.
      // (A report a client assembled without asking for them has none.)
      const widest = i.widestFixes ?? [];
      if (widest.length) {
        parts.push(
          '<p><strong>Widest fixes</strong></p><ul>',
          ...widest.map((f) => `<li class="url">${escapeHtml(f.cause)} — ${plural(f.pages, 'page')}</li>`),
          '</ul>',
        );
      } else if (i.urls.length) {
        parts.push(
          '<p><strong>Affected pages</strong></p><ul>',
          ...i.urls.map((u) => `<li class="url">${escapeHtml(u)}</li>`),
          '</ul>',
        );
      }
      if (i.fix) {
        parts.push(
          `<p><strong>Fix:</strong> ${escapeHtml(i.fix.summary)}</p>`,
          i.fix.steps.length ? `<ul>${i.fix.steps.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` : '',
        );
      }
      parts.push('</div>');
    }
    parts.push('</section>');
  }
  parts.push('<section><h2>Core Web Vitals</h2>');
  if (!r.vitals.length) parts.push('<p>No Core Web Vitals measured yet.</p>');
  else {
    parts.push(
      '<table><thead><tr><th>Page</th><th>Device · source</th><th class="num">LCP</th><th class="num">CLS</th>' +
        '<th class="num">INP</th><th class="num">TBT</th><th class="num">FCP</th><th class="num">TTFB</th></tr>' +
        '</thead><tbody>',
      ...r.vitals.map(
        (v) =>
          `<tr><td class="url">${escapeHtml(v.url)}</td>` +
          `<td>${escapeHtml(v.device)} · ${escapeHtml(sourceLabel(v.source))}</td>` +
          (['lcpMs', 'cls', 'inpMs', 'tbtMs', 'fcpMs', 'ttfbMs'] as const).map((k) => vitalCell(v, k)).join('') +
          '</tr>',
      ),
      '</tbody></table>',
    );
  }
  parts.push('</section><section><h2>Keyword movers</h2>');
  if (!r.keywordGains.length && !r.keywordLosses.length)
    parts.push('<p>No keyword changed position between its last two checks.</p>');
  for (const [title, moves] of [
    ['Biggest gains', r.keywordGains],
    ['Biggest losses', r.keywordLosses],
  ] as const) {
    if (!moves.length) continue;
    parts.push(
      `<h3>${title}</h3><table><thead><tr><th>Keyword</th><th class="num">Position</th><th class="num">Before</th>` +
        '<th class="num">Change</th><th>Ranking page</th></tr></thead><tbody>',
      ...moves.map(
        (m) =>
          `<tr><td>${escapeHtml(m.term)} ` +
          `<span class="muted">(${escapeHtml(m.country)}, ${escapeHtml(m.device)})</span></td>` +
          `<td class="num">${m.position}</td><td class="num">${m.previousPosition}</td>` +
          `<td class="num ${m.change > 0 ? 'good' : 'poor'}">${m.change > 0 ? '▲' : '▼'} ${Math.abs(m.change)}</td>` +
          `<td class="url">${escapeHtml(m.url ?? '—')}</td></tr>`,
      ),
      '</tbody></table>',
    );
  }
  parts.push('</section>');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<title>${escapeHtml(`SEO report: ${r.projectName}`)}</title><style>${STYLE}</style></head><body>` +
    parts.join('') +
    '</body></html>'
  );
}
