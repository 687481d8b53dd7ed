/**
 * Typed reads of a check's evidence. Evidence is stored JSON (and may come from older audits), so every
 * read tolerates a missing or mistyped field instead of trusting the shape the check writes today.
 */
export class FixEvidence {
  private readonly data: Record<string, unknown>;

  constructor(evidence: Record<string, unknown> | null | undefined) {
    this.data = evidence && typeof evidence === 'object' && !Array.isArray(evidence) ? evidence : {};
  }

  string(key: string): string | null {
    const value = this.data[key];
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  }

  number(key: string): number | null {
    const value = this.data[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  }

  boolean(key: string): boolean {
    return this.data[key] === true;
  }

  /** String entries of an array field (other entries dropped), at most `max`. */
  strings(key: string, max = 10): string[] {
    const value = this.data[key];
    if (!Array.isArray(value)) return [];
    return value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '').slice(0, max);
  }

  /** Object entries of an array field, at most `max`. */
  records(key: string, max = 10): Record<string, unknown>[] {
    const value = this.data[key];
    if (!Array.isArray(value)) return [];
    return value
      .filter(
        (entry): entry is Record<string, unknown> =>
          entry !== null && typeof entry === 'object' && !Array.isArray(entry),
      )
      .slice(0, max);
  }

  /** URLs of an array whose entries are strings or objects with a `field` string (evidence uses both forms). */
  urls(key: string, field = 'url', max = 10): string[] {
    const value = this.data[key];
    if (!Array.isArray(value)) return [];
    const out: string[] = [];
    for (const entry of value) {
      if (out.length >= max) break;
      if (typeof entry === 'string' && entry.trim() !== '') out.push(entry);
      else if (entry && typeof entry === 'object' && typeof (entry as Record<string, unknown>)[field] === 'string') {
        out.push((entry as Record<string, string>)[field]);
      }
    }
    return out;
  }
}

/** A string field of an evidence entry object, or null. */
export function fieldOf(entry: Record<string, unknown>, key: string): string | null {
  const value = entry[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A numeric field of an evidence entry object, or null. */
export function numberOf(entry: Record<string, unknown>, key: string): number | null {
  const value = entry[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
