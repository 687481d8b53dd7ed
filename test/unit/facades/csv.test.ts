import { describe, expect, it } from 'vitest';
import { attachmentName, csvCell, csvRow } from '../../../facades/rest/csv.js';

describe('CSV (RFC 4180, formula-injection safe)', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line1\nline2', '"line1\nline2"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    [' padded ', '" padded "'],
    ['ünïcødé ✓', 'ünïcødé ✓'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    [-5, '-5'],
    [true, 'true'],
    [new Date('2026-01-02T03:04:05.000Z'), '2026-01-02T03:04:05.000Z'],
    [{ a: 1, b: 'x,y' }, '"{""a"":1,""b"":""x,y""}"'],
  ])('%j → %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['=HYPERLINK("http://evil","click")', `"'=HYPERLINK(""http://evil"",""click"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['a=b', 'a=b'],
  ])('neutralizes a formula in text: %j → %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('rows end with CRLF; file names are sanitized', () => {
    expect(csvRow(['a', 'b,c', 1])).toBe('a,"b,c",1\r\n');
    expect(attachmentName('ex ample.com/"x"-audits.csv')).toBe('attachment; filename="ex-ample.com-x--audits.csv"');
  });
});
