import { describe, expect, it } from 'vitest';
import { xlsxEnd, xlsxRows, xlsxStart, type XlsxCell } from '../../../src/platform/xlsx.js';
import { readXlsxRows, readZip } from '../../support/xlsx-reader.js';

/** The pieced XLSX writer, read back by the ZIP format's rules (test/support/xlsx-reader.ts). */
describe('streamed XLSX', () => {
  const header = ['URL', 'Status', 'Indexable', 'Title'];
  const row = (i: number): XlsxCell[] => [
    `https://example.test/p${i}?a=1&b=<2>`,
    i % 3 ? 200 : null,
    i % 2 === 0,
    i % 5 ? `Title "${i}" \u0001 ünïcode ✓` : '',
  ];

  it('pieces joined are one valid file with every row, in order', () => {
    const start = xlsxStart([header, row(0)]);
    let state = start.state;
    const chunks = [start.bytes];
    for (let piece = 0; piece < 5; piece++) {
      const next = xlsxRows(
        Array.from({ length: 300 }, (_, k) => row(1 + piece * 300 + k)),
        state,
      );
      chunks.push(next.bytes);
      state = next.state;
    }
    chunks.push(xlsxEnd(state));
    const rows = readXlsxRows(Buffer.concat(chunks));
    expect(rows).toHaveLength(1 + 1 + 1500);
    expect(rows[0]).toEqual(header);
    expect(rows[1]).toEqual(['https://example.test/p0?a=1&b=<2>', null, true, null]);
    expect(rows[8]).toEqual(['https://example.test/p7?a=1&b=<2>', 200, false, 'Title "7"  ünïcode ✓']);
    expect(rows.at(-1)![0]).toBe('https://example.test/p1500?a=1&b=<2>');
  });

  it('an empty table is a file with its header row', () => {
    const start = xlsxStart([header]);
    const file = Buffer.concat([start.bytes, xlsxEnd(start.state)]);
    expect(readXlsxRows(file)).toEqual([header]);
    expect([...readZip(file).keys()]).toContain('xl/worksheets/sheet1.xml');
  });

  it('a damaged file is refused by the reader (the check can fail)', () => {
    const start = xlsxStart([header, row(1)]);
    const file = Buffer.concat([start.bytes, xlsxEnd(start.state)]);
    const damaged = Buffer.from(file);
    damaged[damaged.length - 200] ^= 0xff;
    expect(() => readXlsxRows(damaged)).toThrow();
  });
});
