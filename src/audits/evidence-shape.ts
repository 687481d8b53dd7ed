/*
 * The shape of a check's stored evidence over a whole audit: each top-level key with the JSON types of its values,
 * the types of its list items, and the keys (with types) of the objects it holds directly or in its lists. The URL
 * table makes an issue's evidence columns from it (url-table-evidence.ts), the same on every page of the table.
 * The worker gathers it while the occurrences stream to the database (EvidenceShapes), and stores it with the
 * audit's issues, so that an issue's table does not read all its occurrences to know its columns; audits stored
 * before have their shape read from the occurrences in SQL (UrlTableRepository.evidenceShape), with the same result.
 */

/**
 * One top-level key of a check's stored evidence: the JSON types of its values, of its list items, its sub-keys, and
 * whether every value of it is the occurrence's own URL (which a column would only repeat). Shapes stored before
 * `ownUrl` was gathered lack it: unknown, taken as false.
 */
export interface EvidenceKeyShape {
  key: string;
  types: string[];
  itemTypes: string[];
  subKeys: { key: string; types: string[] }[];
  ownUrl?: boolean;
}

/** PostgreSQL's jsonb_typeof of a JSON value. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

const isObject = (value: unknown): value is Record<string, unknown> => jsonType(value) === 'object';
const sorted = (values: Iterable<string>) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

interface KeyAccumulator {
  ownUrl: boolean;
  types: Set<string>;
  itemTypes: Set<string>;
  subKeys: Map<string, Set<string>>;
}

/** The evidence shapes of an audit's checks, gathered one occurrence at a time. */
export class EvidenceShapes {
  private readonly byCode = new Map<string, Map<string, KeyAccumulator>>();

  /** One occurrence's evidence, found at `url`. */
  add(code: string, evidence: unknown, url: string): void {
    if (!isObject(evidence)) return;
    let keys = this.byCode.get(code);
    if (!keys) this.byCode.set(code, (keys = new Map()));
    for (const [key, value] of Object.entries(evidence)) {
      let acc = keys.get(key);
      if (!acc) keys.set(key, (acc = { ownUrl: true, types: new Set(), itemTypes: new Set(), subKeys: new Map() }));
      acc.types.add(jsonType(value));
      acc.ownUrl &&= value === url;
      const holders = Array.isArray(value) ? value : [value];
      if (Array.isArray(value)) for (const item of value) acc.itemTypes.add(jsonType(item));
      for (const holder of holders) {
        if (!isObject(holder)) continue;
        for (const [sub, subValue] of Object.entries(holder)) {
          let types = acc.subKeys.get(sub);
          if (!types) acc.subKeys.set(sub, (types = new Set()));
          types.add(jsonType(subValue));
        }
      }
    }
  }

  /** A check's shape, keys and types in code point order (as PostgreSQL's C collation sorts them). */
  shapeOf(code: string): EvidenceKeyShape[] {
    const keys = this.byCode.get(code);
    if (!keys) return [];
    return sorted(keys.keys()).map((key) => {
      const acc = keys.get(key)!;
      return {
        key,
        types: sorted(acc.types),
        itemTypes: sorted(acc.itemTypes),
        subKeys: sorted(acc.subKeys.keys()).map((sub) => ({ key: sub, types: sorted(acc.subKeys.get(sub)!) })),
        ownUrl: acc.ownUrl,
      };
    });
  }

  clear(): void {
    this.byCode.clear();
  }
}
