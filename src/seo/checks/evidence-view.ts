import type { CheckCode } from './check-catalog.js';
import { CHECK_DEFINITIONS } from './check-definitions.js';
import {
  ViewBuilder,
  isRecord,
  presentGeneric,
  type Evidence,
  type EvidenceContext,
  type EvidenceKind,
  type EvidenceView,
  type Presenter,
} from './evidence-presenters.js';

/**
 * An occurrence's evidence as a person reads it (issue 26): the evaluators' free-form JSON turned into labelled
 * facts and small tables of plain text, URLs resolved to absolute ones. Each code's presenter is its definition's
 * `evidence` (check-definitions.ts); the shared presenters and cells are in evidence-presenters.ts.
 */
export {
  EVIDENCE_MAX_ROWS,
  type EvidenceCell,
  type EvidenceContext,
  type EvidenceFact,
  type EvidenceKind,
  type EvidenceTable,
  type EvidenceView,
} from './evidence-presenters.js';

const PRESENTERS: Readonly<Record<CheckCode, Presenter>> = Object.fromEntries(
  CHECK_DEFINITIONS.map((check) => [check.code, check.evidence]),
) as Record<CheckCode, Presenter>;

/** The kind of view each catalog code's evidence becomes. */
export const EVIDENCE_KIND_BY_CODE: Readonly<Record<CheckCode, EvidenceKind>> = Object.fromEntries(
  Object.entries(PRESENTERS).map(([code, presenter]) => [code, presenter.kind]),
) as Record<CheckCode, EvidenceKind>;

/**
 * The evidence keys each code's evaluator emits, every one mapped on purpose (shown, or dropped as saying nothing).
 * A key not listed (a newer evaluator, an older stored row) still shows, through the generic rendering.
 */
export const EVIDENCE_KEYS_BY_CODE: Readonly<Record<CheckCode, readonly string[]>> = Object.fromEntries(
  Object.entries(PRESENTERS).map(([code, presenter]) => [code, presenter.keys]),
) as Record<CheckCode, readonly string[]>;

/**
 * One occurrence's evidence as facts and tables of plain text. `pageUrl` is the occurrence's URL (the page, or the
 * file a site check is about): relative URLs resolve against it and link tables name it as the source. Null when
 * nothing in the evidence says more than the check's title (no evidence, or only a count restating the failure).
 * A code outside the catalog (stored by an older version) gets the generic rendering.
 */
export function presentEvidence(
  code: string,
  evidence: Record<string, unknown> | null,
  pageUrl: string,
  context: EvidenceContext = {},
): EvidenceView | null {
  const view = new ViewBuilder(pageUrl, context);
  const record: Evidence = isRecord(evidence) ? evidence : {};
  const presenter: Presenter | undefined = Object.hasOwn(PRESENTERS, code) ? PRESENTERS[code as CheckCode] : undefined;
  presenter?.present?.(record, view);
  const known = new Set(presenter?.keys ?? []);
  presentGeneric(
    Object.entries(record).filter(([key]) => !known.has(key)),
    view,
  );
  if (view.facts.length === 0 && view.tables.length === 0) return null;
  return { kind: presenter?.kind ?? 'VALUES', facts: view.facts, tables: view.tables };
}
