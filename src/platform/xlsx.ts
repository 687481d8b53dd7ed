import { constants, crc32, deflateRawSync } from 'node:zlib';

/*
 * A minimal XLSX (Office Open XML spreadsheet) written in pieces, each piece made without the others in memory: a
 * ZIP whose small parts come first, then one worksheet with inline strings whose compressed data grows piece by
 * piece, then the central directory. Each piece of the worksheet is compressed on its own and ends with a sync
 * flush (a non-final deflate block ending on a byte boundary), so the pieces joined are one valid deflate stream,
 * closed by a final empty block. The worksheet's entry sets bit 3 (its CRC-32 and sizes follow its data in a data
 * descriptor); what the next piece needs (the CRC so far and the byte counts) is the small state the caller keeps.
 */

export interface XlsxState {
  /** CRC-32 of the worksheet's XML so far. */
  crc: number;
  /** Bytes of worksheet XML so far, and of its compressed data. */
  raw: number;
  packed: number;
}

export type XlsxCell = string | number | boolean | null | undefined;

const SHEET = 'xl/worksheets/sheet1.xml';
/** The largest text a cell holds (Excel's limit). */
const MAX_CELL_TEXT = 32_767;
// A DOS date and time (1980-01-01 00:00): the parts carry no meaningful time, and the same bytes each export.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

const STATIC_PARTS: readonly [string, string][] = [
  [
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ' +
      'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ' +
      'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '</Types>',
  ],
  [
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" ' +
      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
      'Target="xl/workbook.xml"/></Relationships>',
  ],
  [
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      '<sheets><sheet name="URLs" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ],
  [
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" ' +
      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" ' +
      'Target="worksheets/sheet1.xml"/></Relationships>',
  ],
];

const SHEET_START =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_END = '</sheetData></worksheet>';

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  packed: number;
  raw: number;
  offset: number;
}

function localHeader(e: Omit<Entry, 'offset'>): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(20, 4);
  b.writeUInt16LE(e.flags, 6);
  b.writeUInt16LE(8, 8);
  b.writeUInt16LE(DOS_TIME, 10);
  b.writeUInt16LE(DOS_DATE, 12);
  b.writeUInt32LE(e.crc, 14);
  b.writeUInt32LE(e.packed, 18);
  b.writeUInt32LE(e.raw, 22);
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, e.name]);
}

function centralHeader(e: Entry): Buffer {
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(20, 4);
  b.writeUInt16LE(20, 6);
  b.writeUInt16LE(e.flags, 8);
  b.writeUInt16LE(8, 10);
  b.writeUInt16LE(DOS_TIME, 12);
  b.writeUInt16LE(DOS_DATE, 14);
  b.writeUInt32LE(e.crc, 16);
  b.writeUInt32LE(e.packed, 20);
  b.writeUInt32LE(e.raw, 24);
  b.writeUInt16LE(e.name.length, 28);
  // extra, comment, disk, internal and external attributes: 0
  b.writeUInt32LE(e.offset, 42);
  return Buffer.concat([b, e.name]);
}

/** The small parts, compressed whole, each with its local header; the same bytes every time. */
function staticParts(): { bytes: Buffer; entries: Entry[] } {
  const chunks: Buffer[] = [];
  const entries: Entry[] = [];
  let offset = 0;
  for (const [name, text] of STATIC_PARTS) {
    const data = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(data);
    const entry = { name: Buffer.from(name), flags: 0, crc: crc32(data), packed: packed.length, raw: data.length };
    const header = localHeader(entry);
    entries.push({ ...entry, offset });
    chunks.push(header, packed);
    offset += header.length + packed.length;
  }
  return { bytes: Buffer.concat(chunks), entries };
}

// Characters XML 1.0 does not allow (a crawled title may hold them): dropped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const escapeXml = (text: string): string =>
  text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function cellXml(value: XlsxCell): string {
  if (value === null || value === undefined || value === '') return '<c/>';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c t="n"><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c t="b"><v>${value ? 1 : 0}</v></c>`;
  const text = String(value).slice(0, MAX_CELL_TEXT);
  return `<c t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
}

const rowsXml = (rows: readonly (readonly XlsxCell[])[]): string =>
  rows.map((row) => `<row>${row.map(cellXml).join('')}</row>`).join('');

/** Worksheet XML compressed as a non-final piece of the stream, and the state after it. */
function sheetPiece(xml: string, state: XlsxState): { bytes: Buffer; state: XlsxState } {
  const data = Buffer.from(xml, 'utf8');
  const bytes = deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  return {
    bytes,
    state: { crc: crc32(data, state.crc), raw: state.raw + data.length, packed: state.packed + bytes.length },
  };
}

const SHEET_ENTRY = { name: Buffer.from(SHEET), flags: 0x0008, crc: 0, packed: 0, raw: 0 };

/** The file's first bytes: the small parts, the worksheet's header, and its first rows (the header row first). */
export function xlsxStart(rows: readonly (readonly XlsxCell[])[]): { bytes: Buffer; state: XlsxState } {
  const piece = sheetPiece(SHEET_START + rowsXml(rows), { crc: 0, raw: 0, packed: 0 });
  return { bytes: Buffer.concat([staticParts().bytes, localHeader(SHEET_ENTRY), piece.bytes]), state: piece.state };
}

/** More rows of the worksheet. */
export function xlsxRows(
  rows: readonly (readonly XlsxCell[])[],
  state: XlsxState,
): { bytes: Buffer; state: XlsxState } {
  return sheetPiece(rowsXml(rows), state);
}

/** The file's last bytes: the worksheet's end, its data descriptor, the central directory. */
export function xlsxEnd(state: XlsxState): Buffer {
  const tail = sheetPiece(SHEET_END, state);
  // A final empty block closes the deflate stream.
  const closing = deflateRawSync(Buffer.alloc(0));
  const sheet = { ...tail.state, packed: tail.state.packed + closing.length };
  if (sheet.packed > 0xf0000000 || sheet.raw > 0xffffffff) throw new Error('XLSX over 4 GB: use CSV');
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(sheet.crc, 4);
  descriptor.writeUInt32LE(sheet.packed, 8);
  descriptor.writeUInt32LE(sheet.raw, 12);
  const { bytes: statics, entries } = staticParts();
  const sheetOffset = statics.length;
  const sheetEntry: Entry = {
    ...SHEET_ENTRY,
    crc: sheet.crc,
    packed: sheet.packed,
    raw: sheet.raw,
    offset: sheetOffset,
  };
  const central = Buffer.concat([...entries, sheetEntry].map(centralHeader));
  const centralOffset = sheetOffset + localHeader(SHEET_ENTRY).length + sheet.packed + descriptor.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length + 1, 8);
  end.writeUInt16LE(entries.length + 1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([tail.bytes, closing, descriptor, central, end]);
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
