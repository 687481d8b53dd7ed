import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reads an XLSX back for tests, by the ZIP format's own rules and nothing of the writer: the end of central
 * directory record, each central directory entry, its local header, its data inflated and checked against the
 * CRC-32 and sizes the directory states; then the worksheet's rows (inline strings, numbers, booleans).
 */
export function readZip(file: Buffer): Map<string, Buffer> {
  const eocd = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  const count = file.readUInt16LE(eocd + 10);
  const size = file.readUInt32LE(eocd + 12);
  let at = file.readUInt32LE(eocd + 16);
  if (at + size !== eocd) throw new Error('central directory does not end where the end record starts');
  const parts = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (file.readUInt32LE(at) !== 0x02014b50) throw new Error(`central entry ${i}: bad signature`);
    const flags = file.readUInt16LE(at + 8);
    const method = file.readUInt16LE(at + 10);
    const crc = file.readUInt32LE(at + 16);
    const packed = file.readUInt32LE(at + 20);
    const raw = file.readUInt32LE(at + 24);
    const nameLength = file.readUInt16LE(at + 28);
    const extra = file.readUInt16LE(at + 30);
    const comment = file.readUInt16LE(at + 32);
    const offset = file.readUInt32LE(at + 42);
    const name = file.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extra + comment;
    if (file.readUInt32LE(offset) !== 0x04034b50) throw new Error(`${name}: bad local header`);
    if (file.readUInt16LE(offset + 6) !== flags) throw new Error(`${name}: flags differ`);
    const start = offset + 30 + file.readUInt16LE(offset + 26) + file.readUInt16LE(offset + 28);
    const stored = file.subarray(start, start + packed);
    if (flags & 0x0008) {
      const descriptor = start + packed;
      const signed = file.readUInt32LE(descriptor) === 0x08074b50 ? 4 : 0;
      if (file.readUInt32LE(descriptor + signed) !== crc) throw new Error(`${name}: descriptor CRC differs`);
    }
    const data = method === 8 ? inflateRawSync(stored) : method === 0 ? stored : null;
    if (!data) throw new Error(`${name}: method ${method}`);
    if (data.length !== raw) throw new Error(`${name}: ${data.length} bytes, directory says ${raw}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC differs`);
    parts.set(name, data);
  }
  return parts;
}

const unescape = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!,
  );

/** The first worksheet's rows, each cell as a string, number, boolean or null. */
export function readXlsxRows(file: Buffer): (string | number | boolean | null)[][] {
  const parts = readZip(file);
  for (const required of ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels'])
    if (!parts.has(required)) throw new Error(`missing ${required}`);
  const sheet = parts.get('xl/worksheets/sheet1.xml')?.toString('utf8');
  if (!sheet) throw new Error('no worksheet');
  if (!/^<\?xml[^>]*\?>\s*<worksheet [^>]*><sheetData>.*<\/sheetData><\/worksheet>$/s.test(sheet))
    throw new Error('worksheet is not whole');
  return [...sheet.matchAll(/<row>(.*?)<\/row>/gs)].map(([, row]) =>
    [...row.matchAll(/<c\/>|<c t="(\w+)">(.*?)<\/c>/gs)].map(([, type, body]) => {
      if (type === undefined) return null;
      if (type === 'n') return Number(/<v>(.*)<\/v>/.exec(body)![1]);
      if (type === 'b') return /<v>1<\/v>/.test(body);
      return unescape(/<t[^>]*>(.*)<\/t>/s.exec(body)![1]);
    }),
  );
}
