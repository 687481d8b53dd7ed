import { EVIDENCE_KEYS_BY_CODE } from '../seo/checks/index.js';
import type { EvidenceKeyShape } from './evidence-shape.js';
import type { UrlField } from './url-table.repository.js';

/*
 * A check's evidence as columns of the URL table: each key of the stored evidence a column (an object's keys, and
 * the keys of the objects in a list, one column each), the first list exploded into one row per item (a broken
 * link's target and status; a duplicate's twin), so that no cell holds JSON. The columns come from the shape of the
 * check's evidence over the whole audit (UrlTableRepository.evidenceShape): the same on every page of the table. A
 * key whose every value is the occurrence's own URL (a plain http page's `url`) is no column: it would repeat the row.
 */

export interface EvidenceColumn {
  key: string;
  label: string;
  type: 'text' | 'number' | 'bool';
  description: string;
  /** The evidence key, and the key inside its object (or its list's objects); null for the value itself. */
  path: readonly [string, string | null];
  /** Read from the audit's link graph, not from the stored evidence (a link's anchor text). */
  fromLinks?: boolean;
}

export interface EvidencePlan {
  columns: EvidenceColumn[];
  /** The list whose items become rows, or null. */
  explode: string | null;
}

export const EVIDENCE_PREFIX = 'evidence.';
/** The anchor text of a link the evidence names, from the audit's link graph (not stored in the evidence). */
export const ANCHOR = 'anchor';

const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function typeOf(types: readonly string[]): EvidenceColumn['type'] {
  const known = types.filter((t) => t !== 'null');
  if (known.length && known.every((t) => t === 'number')) return 'number';
  if (known.length && known.every((t) => t === 'boolean')) return 'bool';
  return 'text';
}

/** The evidence columns of a check, from its evidence's shape (keys in the order its definition lists them). */
export function evidencePlan(code: string, shapes: readonly EvidenceKeyShape[]): EvidencePlan {
  const declared: readonly string[] = (EVIDENCE_KEYS_BY_CODE as Record<string, readonly string[]>)[code] ?? [];
  const rank = (key: string) => (declared.includes(key) ? declared.indexOf(key) : declared.length);
  const ordered = [...shapes].sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
  const explode = ordered.find((s) => s.types.includes('array') && s.itemTypes.length > 0)?.key ?? null;
  const columns: EvidenceColumn[] = [];
  const column = (
    path: readonly [string, string | null],
    types: readonly string[],
    description: string,
    fromLinks = false,
  ) =>
    columns.push({
      ...(fromLinks ? { fromLinks } : {}),
      key: `${EVIDENCE_PREFIX}${path[0]}${path[1] === null ? '' : `.${path[1]}`}`,
      label: capital(path[1] === null ? words(path[0]) : `${words(path[0])}: ${words(path[1])}`),
      type: typeOf(types),
      description,
      path,
    });
  for (const shape of ordered) {
    // A value that is the row's own URL on every row would only repeat the URL column.
    if (shape.ownUrl) continue;
    const exploded = shape.key === explode;
    const scalarItems = shape.itemTypes.some((t) => t !== 'object');
    if (shape.subKeys.length && (exploded || !shape.types.includes('array'))) {
      if (exploded && scalarItems) column([shape.key, null], shape.itemTypes, 'One item of the list per row.');
      for (const sub of shape.subKeys) column([shape.key, sub.key], sub.types, 'From the evidence.');
    } else if (exploded) column([shape.key, null], shape.itemTypes, 'One item of the list per row.');
    else column([shape.key, null], shape.types, 'From the evidence (a list is joined with commas).');
    const linkLike = exploded && /links?$/i.test(shape.key) && !shape.subKeys.some((s) => s.key === ANCHOR);
    if (linkLike) column([shape.key, ANCHOR], ['string'], "The link's anchor text (the audit's link graph).", true);
  }
  return { columns, explode };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A cell: scalars as they are, lists joined with commas, objects as "key: value" pairs. Never JSON. */
function cell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => String(cell(v) ?? '')).join(', ');
  if (isRecord(value))
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${String(cell(v) ?? '')}`)
      .join('; ');
  return null;
}

/** The URL a list item names (a link target): the item itself, or its `url`. */
export function itemUrl(item: unknown): string | null {
  if (typeof item === 'string') return item;
  return isRecord(item) && typeof item.url === 'string' ? item.url : null;
}

/** The URLs the exploded list of an occurrence's evidence names (for their anchor texts). */
export function explodedUrls(plan: EvidencePlan, evidence: unknown): string[] {
  if (!plan.explode || !isRecord(evidence)) return [];
  const list = evidence[plan.explode];
  return Array.isArray(list) ? list.map(itemUrl).filter((u): u is string => u !== null) : [];
}

/**
 * One occurrence's evidence as rows of the plan's columns: one row per item of the exploded list (at least one).
 * `anchorOf` names a link target's anchor text.
 */
export function flattenEvidence(
  plan: EvidencePlan,
  evidence: unknown,
  anchorOf: (target: string) => string | undefined = () => undefined,
): (string | number | boolean | null)[][] {
  const record = isRecord(evidence) ? evidence : {};
  const list = plan.explode ? record[plan.explode] : undefined;
  const items: unknown[] = Array.isArray(list) && list.length ? list : [undefined];
  return items.map((item) =>
    plan.columns.map(({ path: [key, sub] }) => {
      const value = key === plan.explode ? item : record[key];
      if (sub === null) return cell(value);
      if (key === plan.explode && sub === ANCHOR && !(isRecord(value) && ANCHOR in value)) {
        const target = itemUrl(value);
        return target === null ? null : (anchorOf(target) ?? null);
      }
      return isRecord(value) ? cell(value[sub]) : null;
    }),
  );
}

const PLAIN_KEY = /^[A-Za-z0-9_]{1,100}$/;

/**
 * An evidence column as a sort of the check's table: its value in the stored evidence (an exploded list sorts by its
 * first item, the occurrence's other items following it). Null when it cannot sort: a value from the link graph, or
 * a key that is not a plain word (never written into SQL).
 */
export function evidenceSortField(plan: EvidencePlan, column: EvidenceColumn): UrlField | null {
  const [key, sub] = column.path;
  if (column.fromLinks || !PLAIN_KEY.test(key) || (sub !== null && !PLAIN_KEY.test(sub))) return null;
  const path = [key, ...(key === plan.explode ? ['0'] : []), ...(sub === null ? [] : [sub])].join(',');
  const json = `(o.evidence #> '{${path}}')`;
  const textValue = `(o.evidence #>> '{${path}}')`;
  const base = { ...column, sortable: true, filterable: false };
  switch (column.type) {
    case 'number':
      return {
        ...base,
        pgType: 'float8',
        sql: `(CASE WHEN jsonb_typeof(${json}) = 'number' THEN ${textValue}::float8 END)`,
      };
    case 'bool':
      return {
        ...base,
        pgType: 'boolean',
        sql: `(CASE WHEN jsonb_typeof(${json}) = 'boolean' THEN ${textValue}::boolean END)`,
      };
    case 'text':
      return { ...base, pgType: 'text', sql: textValue };
  }
}
