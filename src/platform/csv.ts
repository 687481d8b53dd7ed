/**
 * CSV per RFC 4180 (comma, CRLF, double-quote escaping), UTF-8 with a BOM so spreadsheets detect the
 * encoding, and safe against formula injection: a text cell starting with =, +, -, @, tab or CR is
 * prefixed with an apostrophe (OWASP's recommendation), so a spreadsheet shows it as text.
 */
export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A safe attachment file name: letters, digits, dot, dash and underscore only. */
export const attachmentName = (name: string): string =>
  `attachment; filename="${name.replace(/[^A-Za-z0-9._-]+/g, '-')}"`;
