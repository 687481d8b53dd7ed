import { SEVERITIES, findCheck, type Severity } from '../checks/index.js';
import type { GateOccurrence } from './baseline-comparison.js';

/** What the gate compares this run with: every occurrence of an earlier audit, and its overall score. */
export interface Baseline {
  /** How messages name it: the file given, or `audit <id>`. */
  label: string;
  /** The URL that audit started from (or its project's), when the baseline says. */
  url: string | null;
  /** Its overall score; null when the document carries none (an issues export). */
  overall: number | null;
  occurrences: GateOccurrence[];
}

/** A --baseline document the gate cannot use, and why. */
export class BaselineDocumentError extends Error {
  override readonly name = 'BaselineDocumentError';
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const EXPECTED =
  'expected the JSON of `seo audit <url> --json --all-occurrences` (or --write-json), the JSON report of one ' +
  'audit (GET /api/projects/:id/reports?auditId=…), or an issues export in JSON';

/**
 * The baseline in one of the documents that carry every occurrence of an audit:
 * - the CLI's own `--json --all-occurrences` output (`{ status, scores, issues: [{ code, severity, occurrences }] }`);
 * - the platform's report of one audit (`{ reports: [{ status, scores, occurrences: [{ code, url, severity }] }] }`);
 * - the platform's issues export (`{ kind: "issues", audit, rows: [{ code, url, severity }] }`: no score).
 * A document that lists examples rather than every occurrence is refused: compared on 5 URLs per issue, every other
 * affected URL would look new.
 */
export function parseBaselineDocument(doc: unknown, label: string): Baseline {
  if (!isObject(doc)) throw new BaselineDocumentError(`not a baseline: ${EXPECTED}.`);
  if (Array.isArray(doc.issues)) return fromCliOutput(doc, label);
  if (Array.isArray(doc.reports)) return fromReport(doc, label);
  if (doc.kind === 'issues' && Array.isArray(doc.rows)) return fromIssuesExport(doc, label);
  throw new BaselineDocumentError(`not a baseline: ${EXPECTED}.`);
}

function requireCompleted(status: unknown, what: string): void {
  if (status !== undefined && status !== null && status !== 'COMPLETED')
    throw new BaselineDocumentError(
      `${what} is ${String(status)}, not COMPLETED: only a completed audit is a baseline.`,
    );
}

function overallOf(scores: unknown): number | null {
  const overall = isObject(scores) ? scores.overall : undefined;
  return typeof overall === 'number' && Number.isFinite(overall) ? overall : null;
}

/** One occurrence of the document, its issue's fields filled from the catalog where the document omits them. */
function occurrence(fields: Json, where: string): GateOccurrence {
  const { code, url } = fields;
  if (typeof code !== 'string' || code === '' || typeof url !== 'string' || url === '')
    throw new BaselineDocumentError(`${where} has no code and URL.`);
  const check = findCheck(code);
  const severity = (SEVERITIES as readonly unknown[]).includes(fields.severity)
    ? (fields.severity as Severity)
    : check?.severity;
  if (!severity) throw new BaselineDocumentError(`${where} (${code}) has no severity the gate knows.`);
  return {
    code,
    url,
    severity,
    title: typeof fields.title === 'string' ? fields.title : (check?.title ?? code),
    category: typeof fields.category === 'string' ? fields.category : (check?.category ?? 'TECHNICAL'),
  };
}

function fromCliOutput(doc: Json, label: string): Baseline {
  requireCompleted(doc.status, 'the audit in it');
  const occurrences: GateOccurrence[] = [];
  (doc.issues as unknown[]).forEach((issue, i) => {
    if (!isObject(issue)) throw new BaselineDocumentError(`issues[${i}] is not an issue.`);
    if (!Array.isArray(issue.occurrences))
      throw new BaselineDocumentError(
        `issues[${i}] (${String(issue.code)}) lists ${Array.isArray(issue.examples) ? 'examples' : 'no URLs'}, ` +
          'not every occurrence: save the baseline with `seo audit <url> --json --all-occurrences` ' +
          '(or --write-json <file>).',
      );
    const { occurrences: list, examples: _examples, ...fields } = issue;
    (list as unknown[]).forEach((o, j) => {
      const where = `issues[${i}].occurrences[${j}]`;
      if (!isObject(o)) throw new BaselineDocumentError(`${where} is not an occurrence.`);
      occurrences.push(occurrence({ ...fields, url: o.url }, where));
    });
  });
  return { label, url: typeof doc.url === 'string' ? doc.url : null, overall: overallOf(doc.scores), occurrences };
}

function fromReport(doc: Json, label: string): Baseline {
  const reports = doc.reports as unknown[];
  const report = reports.length === 1 && isObject(reports[0]) ? reports[0] : null;
  if (!report || !Array.isArray(report.occurrences))
    throw new BaselineDocumentError(
      'a list of reports without their occurrences: export the report of one audit ' +
        '(GET /api/projects/:id/reports?auditId=<id>), which lists every occurrence.',
    );
  requireCompleted(report.status, `audit ${String(report.auditId)}`);
  const occurrences = report.occurrences.map((o, j) => {
    if (!isObject(o)) throw new BaselineDocumentError(`reports[0].occurrences[${j}] is not an occurrence.`);
    return occurrence(o, `reports[0].occurrences[${j}]`);
  });
  return { label, url: null, overall: overallOf(report.scores), occurrences };
}

function fromIssuesExport(doc: Json, label: string): Baseline {
  if (isObject(doc.audit)) requireCompleted(doc.audit.status, `audit ${String(doc.audit.id)}`);
  const occurrences = (doc.rows as unknown[]).map((o, j) => {
    if (!isObject(o)) throw new BaselineDocumentError(`rows[${j}] is not an occurrence.`);
    return occurrence(o, `rows[${j}]`);
  });
  return { label, url: null, overall: null, occurrences };
}
