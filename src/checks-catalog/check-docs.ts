/**
 * The public check catalog: every check definition of src/seo/checks (check-definitions.ts: its catalog entry, why
 * and how to fix), what it needs to run and how it counts in the score (src/seo/scoring). Read generically from the
 * definitions, so a check defined there appears here, in GraphQL `checks`, GET /api/checks, the /checks pages and
 * docs/checks/ (checkDocsMarkdown, written by `npm run docs:checks`), by itself.
 */
import {
  CHECK_DEFINITIONS,
  CHECK_FAMILIES,
  chargedScope,
  getCheck,
  type Category,
  type CheckSpec,
  type CheckDefinition,
  type CheckNeeds,
  type CheckScope,
  type Severity,
} from '../seo/checks/index.js';
import {
  BLOCKED_OVERALL_CAP,
  CATEGORY_WEIGHTS,
  CRITICAL_MIN_COST,
  FIX_CEILINGS,
  PAGE_ISSUE_WEIGHTS,
  SITE_FACT_SHARE,
  SHOWN_WORSE_HEALTH_WORDS,
  SITE_ISSUE_COSTS,
} from '../seo/scoring/index.js';

/**
 * What a check needs beyond an html-mode crawl: NONE; LAB_BROWSER, a lab measurement in Chromium (Core Web Vitals
 * and page weight of the start URL and the most linked pages; not applicable without a configured browser);
 * RENDERING_MODE, the project's browser rendering mode (raw HTML compared with the rendered page).
 */
export type CheckRequirement = 'NONE' | CheckNeeds;

export interface CheckDoc {
  code: string;
  title: string;
  category: Category;
  severity: Severity;
  scope: CheckScope;
  /** The rule, in one sentence. */
  description: string;
  why: string;
  fix: string;
  /** Severity follows the measured band (NOTICE, WARNING above the second threshold): not overridable. */
  banded: boolean;
  requires: CheckRequirement;
  /** A failing blocker caps the overall score (site-wide: nothing can be crawled or indexed). */
  blocker: boolean;
  /** How a failure counts in the score, in one or two plain sentences. */
  scoring: string;
}

/** What each check needs beyond an HTML crawl: its definition's `needs`. */
const NEEDS: ReadonlyMap<string, CheckRequirement> = new Map(
  (CHECK_DEFINITIONS as readonly CheckSpec[]).map((check) => [check.code, check.needs ?? 'NONE']),
);

export function requirementOf(code: string): CheckRequirement {
  return NEEDS.get(code) ?? 'NONE';
}

/** How a failure of the check counts (score-formula.ts), at the catalog's severity. */
export function scoringOf(check: CheckDefinition): string {
  const category = check.category;
  const weight = CATEGORY_WEIGHTS[category];
  let cost: string;
  if (check.banded) {
    cost =
      `Each affected page costs the ${category} score 100 × ${String(PAGE_ISSUE_WEIGHTS.NOTICE)} ÷ crawled HTML ` +
      `pages in the needs-improvement band (NOTICE) and 100 × ${String(PAGE_ISSUE_WEIGHTS.WARNING)} ÷ crawled HTML ` +
      'pages in the poor band (WARNING): each page at the band its measured value falls in.';
    if (check.lighthouseScored)
      cost +=
        " With lab metrics, Lighthouse's performance score weighs this metric instead and the check costs nothing.";
  } else if (check.siteFact) {
    cost =
      `A fact of the site or its server, charged once for the site: it costs the ${category} score the larger of ` +
      `${String(SITE_ISSUE_COSTS[check.severity])} points and ${String(SITE_FACT_SHARE)} × 100 × ` +
      `${String(PAGE_ISSUE_WEIGHTS[check.severity])} × affected pages ÷ crawled HTML pages, and never counts ` +
      'against health.';
  } else if (check.fixUnit) {
    const fixSeverity = check.fixSeverity ?? check.severity;
    const most = 100 * PAGE_ISSUE_WEIGHTS[fixSeverity];
    cost =
      `A fix is the unit of cost: each failing ${check.fixUnit} is one fix, however many pages it is on. A fix ` +
      `costs the ${category} score ${String(FIX_CEILINGS[fixSeverity])} × √(pages it is on ÷ crawled HTML pages)` +
      (fixSeverity !== check.severity
        ? ` (a ${fixSeverity} fix, though each page's finding is a ${check.severity})`
        : '') +
      `; fixes on the very same pages are one place, a place of k fixes costing one fix × (1 + log10 k); the places ` +
      `add in quadrature (√ of the sum of their squares), at most ${String(most)} points.`;
  } else if (check.bySpread) {
    cost =
      `A site-level issue charged by its spread: it costs the ${category} score the larger of ` +
      `${String(SITE_ISSUE_COSTS[check.severity])} points and ${String(SITE_FACT_SHARE)} × 100 × ` +
      `${String(PAGE_ISSUE_WEIGHTS[check.severity])} × affected pages ÷ crawled HTML pages, and never counts ` +
      'against health.';
  } else if (check.scope === 'site') {
    cost = `A failure costs the ${category} score ${String(SITE_ISSUE_COSTS[check.severity])} points (a fixed cost).`;
  } else {
    cost =
      `It costs the ${category} score 100 × ${String(PAGE_ISSUE_WEIGHTS[check.severity])} × affected pages ÷ crawled ` +
      'HTML pages' +
      (check.severity === 'CRITICAL' ? `, at least ${CRITICAL_MIN_COST} point.` : '.');
  }
  const parts = [cost, `${category} weighs ${weight}% of the categories' half of the overall score.`];
  if (check.severity === 'CRITICAL' && check.scope === 'page' && !check.siteFact)
    parts.push('Pages where it fails count as pages with a CRITICAL issue, which lowers the health half.');
  if (check.shownWorse)
    parts.push(
      `A page where it fails is shown worse in search: it counts as ${SHOWN_WORSE_HEALTH_WORDS} of a healthy page ` +
        'in the health half.',
    );
  if (check.blocker) parts.push(`When it fails the overall score is capped at ${BLOCKED_OVERALL_CAP}.`);
  parts.push(
    'A project can disable it (no issue, no cost) or' +
      (check.banded ? ' not change its severity (banded).' : ' change its severity (costed at the new severity).'),
  );
  return parts.join(' ');
}

/** The check's catalog entry (check-catalog.ts), as the score reads it. */
function catalogEntry(check: CheckSpec): CheckDefinition {
  return getCheck(check.code);
}

function toDoc(spec: CheckSpec): CheckDoc {
  const check = catalogEntry(spec);
  return {
    code: check.code,
    title: check.title,
    category: check.category,
    severity: check.severity,
    scope: chargedScope(check),
    description: check.description,
    why: spec.why,
    fix: spec.howToFix,
    banded: check.banded === true,
    requires: requirementOf(check.code),
    blocker: check.blocker === true,
    scoring: scoringOf(check),
  };
}

let docs: readonly CheckDoc[] | null = null;

/** Every check of the catalog, in catalog order (category, then as listed). */
export function checkDocs(): readonly CheckDoc[] {
  docs ??= (CHECK_DEFINITIONS as readonly CheckSpec[]).map(toDoc);
  return docs;
}

/** One check, or undefined for a code the catalog does not have. */
export function checkDoc(code: string): CheckDoc | undefined {
  return checkDocs().find((doc) => doc.code === code);
}

/** How a severity reads in the docs: banded checks show both bands. */
function severityText(doc: CheckDoc): string {
  return doc.banded ? 'NOTICE (needs improvement) or WARNING (poor), by band' : doc.severity;
}

const REQUIREMENT_TEXT: Readonly<Record<CheckRequirement, string>> = {
  NONE: 'an HTML crawl',
  LAB_BROWSER: 'a lab measurement in Chromium',
  RENDERING_MODE: "the project's browser rendering mode",
};

/** Plain text in markdown: a tag named in the text (<title>) is shown, not taken for HTML. */
function text(value: string): string {
  return value.replaceAll('<', '&lt;');
}

function checkSection(spec: CheckSpec, doc: CheckDoc): string[] {
  const siteFact = spec.siteFact ? ', charged once for the site' : '';
  const keys = spec.evidence.keys.length > 0 ? spec.evidence.keys.map((key) => `\`${key}\``).join(', ') : 'none';
  return [
    `## ${doc.code}`,
    '',
    `**${text(doc.title)}.** ${text(doc.description)}`,
    '',
    '| | |',
    '|---|---|',
    `| Severity | ${severityText(doc)} |`,
    `| Category | ${doc.category} |`,
    `| Scope | ${spec.scope === 'site' ? 'site (once per audit)' : 'page'}${siteFact} |`,
    `| Needs | ${REQUIREMENT_TEXT[doc.requires]} |`,
    ...(spec.requires ? [`| Applies when | \`${spec.requires}\` passes (the element exists) |`] : []),
    `| Evidence shown | ${spec.evidence.kind.toLowerCase()}; keys: ${keys} |`,
    '',
    `**Why it matters.** ${text(doc.why)}`,
    '',
    `**How to fix it.** ${text(doc.fix)}`,
    '',
    `**How it counts.** ${doc.scoring}`,
    '',
  ];
}

/**
 * docs/checks/ as files (path relative to docs/checks/ -> markdown): one page per family of checks and an index,
 * all generated from the definitions. `npm run docs:checks` writes them; `npm run docs:checks:check` and a unit test
 * fail when the files differ.
 */
export function checkDocsMarkdown(): ReadonlyMap<string, string> {
  const byCode = new Map(checkDocs().map((doc) => [doc.code, doc]));
  const files = new Map<string, string>();
  const index = [
    '# Checks',
    '',
    'Every check the audit runs, generated from its definition (`src/seo/checks/<category>/<family>.ts`) by',
    '`npm run docs:checks`; do not edit these files by hand. How severities become scores: [scores](../scores.md).',
    '',
    '| code | title | severity | scope | family |',
    '|---|---|---|---|---|',
  ];
  for (const family of CHECK_FAMILIES) {
    const page = `${family.path}.md`;
    const lines = [
      `# ${family.title}`,
      '',
      `Generated from \`src/seo/checks/${family.path}.ts\` by \`npm run docs:checks\`. [All checks](${
        family.path.includes('/') ? '../' : ''
      }README.md).`,
      '',
    ];
    for (const spec of family.checks as readonly CheckSpec[]) {
      const doc = byCode.get(spec.code)!;
      lines.push(...checkSection(spec, doc));
      const anchor = doc.code.toLowerCase();
      index.push(
        `| [${doc.code}](${page}#${anchor}) | ${text(doc.title)} | ${doc.banded ? 'banded' : doc.severity} | ` +
          `${spec.scope} | ${family.title} |`,
      );
    }
    files.set(page, `${lines.join('\n').trimEnd()}\n`);
  }
  files.set('README.md', `${index.join('\n')}\n`);
  return files;
}

/** The markers around docs/scores.md's catalog table: the table is generated, the text outside them is not. */
export const SCORES_TABLE_START =
  '<!-- The catalog table, generated from the check definitions by npm run docs:checks (its reasons: each ' +
  "definition's scoreReason). Edit the definitions, not this table. -->";
export const SCORES_TABLE_END = '<!-- End of the generated catalog table. -->';

/** A table cell: plain text, a `|` kept inside its cell. */
function cell(value: string): string {
  return text(value).replaceAll('|', '\\|');
}

function severityCell(check: CheckDefinition): string {
  if (check.banded) return 'NOTICE / WARNING (band)';
  return check.blocker ? `${check.severity} · blocker` : check.severity;
}

/**
 * docs/scores.md "Catalog": one row per check, in catalog order, read from its definition (code, severity, charged
 * scope, category, rule) but for its reason (`scoreReason`: the anchors and why ours), the one hand-written part.
 * Throws when a check has no reason, or a CRITICAL one does not say why.
 */
export function scoresCatalogTable(specs: readonly CheckSpec[] = CHECK_DEFINITIONS): string {
  const missing = specs.filter((spec) => spec.scoreReason === undefined).map((spec) => spec.code);
  if (missing.length > 0)
    throw new Error(`no scoreReason in the definition of ${missing.join(', ')} (docs/scores.md "Catalog")`);
  const unexplained = specs
    .filter((spec) => spec.severity === 'CRITICAL' && !spec.scoreReason?.ours)
    .map((spec) => spec.code);
  if (unexplained.length > 0)
    throw new Error(`a CRITICAL check says why in scoreReason.ours: ${unexplained.join(', ')} (docs/scores.md)`);
  const rows = specs.map((spec) => {
    const check = catalogEntry(spec);
    const reason = spec.scoreReason!;
    const scope = check.siteFact ? 'site (fact)' : chargedScope(check);
    const cells = [`\`${check.code}\``, severityCell(check), scope, check.category, cell(check.description)];
    for (const part of [reason.lighthouse, reason.semrush, reason.ahrefs, reason.ours]) cells.push(cell(part ?? '—'));
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| code | severity | scope | category | rule | Lighthouse | Semrush | Ahrefs | why ours |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** docs/scores.md with its catalog table (between the markers) as the definitions generate it. */
export function withScoresCatalogTable(doc: string): string {
  const start = doc.indexOf(SCORES_TABLE_START);
  const end = doc.indexOf(SCORES_TABLE_END);
  if (start === -1 || end < start) throw new Error('docs/scores.md lacks the markers of its catalog table');
  return `${doc.slice(0, start)}${SCORES_TABLE_START}\n\n${scoresCatalogTable()}\n\n${doc.slice(end)}`;
}
