import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/errors.js';
import { ExportCursors } from '../../../src/audits/url-table-export.js';

const KEY = 'k'.repeat(40);
const cursor = { table: 'abc', rows: 4, xlsx: { crc: 1, raw: 2, packed: 3 } };
const view = { columns: ['url'], sort: { field: 'words', direction: 'DESC' }, filter: null, checkCode: null };
const binding = ['org-1', 'audit-1', 'XLSX', view] as const;

const refusal = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).code;
  }
};

describe('export cursors (signed)', () => {
  const cursors = new ExportCursors(KEY);
  const sealed = cursors.seal(cursor, binding);

  it('opens what it sealed for the same binding, however the view is spelled', () => {
    expect(cursors.open(sealed, binding)).toEqual(cursor);
    // Keys in another order, null members absent: the same view.
    const respelled = { sort: { direction: 'DESC', field: 'words' }, columns: ['url'] };
    expect(cursors.open(sealed, ['org-1', 'audit-1', 'XLSX', respelled])).toEqual(cursor);
  });

  it('refuses another organization, audit, format or view, another key, and any altered character', () => {
    const other = (i: number, value: unknown) => binding.map((v, k) => (k === i ? value : v)) as never;
    expect(refusal(() => cursors.open(sealed, other(0, 'org-2')))).toBe('BAD_USER_INPUT');
    expect(refusal(() => cursors.open(sealed, other(1, 'audit-2')))).toBe('BAD_USER_INPUT');
    expect(refusal(() => cursors.open(sealed, other(2, 'CSV')))).toBe('BAD_USER_INPUT');
    expect(refusal(() => cursors.open(sealed, other(3, { ...view, columns: ['url', 'title'] })))).toBe(
      'BAD_USER_INPUT',
    );
    expect(refusal(() => new ExportCursors('x'.repeat(40)).open(sealed, binding))).toBe('BAD_USER_INPUT');
    for (let i = 0; i < sealed.length; i++) {
      if (sealed[i] === '.') continue;
      // Base64url's last character carries unused bits: change it to a value that differs in the bits that count.
      const altered = sealed.slice(0, i) + (sealed[i] === 'A' ? 'g' : 'A') + sealed.slice(i + 1);
      expect(
        refusal(() => cursors.open(altered, binding)),
        `character ${i}`,
      ).toBe('BAD_USER_INPUT');
    }
    for (const junk of ['', '.', 'a.b', 'garbage!', `${sealed}.x`, `${'a'.repeat(5000)}.${'b'.repeat(43)}`])
      expect(
        refusal(() => cursors.open(junk, binding)),
        junk.slice(0, 20),
      ).toBe('BAD_USER_INPUT');
  });

  it('refuses a cursor without XLSX state for XLSX, and one with it for CSV, even when signed', () => {
    const csv = ['org-1', 'audit-1', 'CSV', view] as const;
    expect(refusal(() => cursors.open(cursors.seal(cursor, csv), csv))).toBe('BAD_USER_INPUT');
    expect(refusal(() => cursors.open(cursors.seal({ ...cursor, xlsx: null }, binding), binding))).toBe(
      'BAD_USER_INPUT',
    );
    expect(cursors.open(cursors.seal({ ...cursor, xlsx: null }, csv), csv)).toEqual({ ...cursor, xlsx: null });
  });
});
