/**
 * Just enough MIME to read what the platform sends (nodemailer: multipart/alternative of text/plain and text/html,
 * each quoted-printable, base64 or 7bit): the headers and the decoded parts. No library: what a test reads is
 * what the SMTP server received.
 */
export interface MailPart {
  contentType: string;
  body: string;
}

export interface ParsedMail {
  headers: Record<string, string>;
  subject: string;
  parts: MailPart[];
  text: string;
  html: string;
}

function splitHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Unfold continued lines, then split "Name: value".
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i];
    if (c === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  const e = (encoding ?? '7bit').toLowerCase();
  if (e === 'quoted-printable') return decodeQuotedPrintable(body);
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`) in a header. */
function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: splitHeaders(raw), body: '' };
  const sep = raw.slice(at).match(/^\r?\n\r?\n/)![0];
  return { headers: splitHeaders(raw.slice(0, at)), body: raw.slice(at + sep.length) };
}

function partsOf(raw: string): MailPart[] {
  const { headers, body } = splitEntity(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const pieces = body.split(`--${boundary}`).slice(1);
    return pieces.filter((p) => !p.startsWith('--')).flatMap((p) => partsOf(p.replace(/^\r?\n/, '')));
  }
  return [
    {
      contentType: type.split(';')[0].trim().toLowerCase(),
      body: decodeBody(body, headers['content-transfer-encoding']),
    },
  ];
}

export function parseMail(raw: string): ParsedMail {
  const { headers } = splitEntity(raw);
  const parts = partsOf(raw);
  return {
    headers,
    subject: decodeHeader(headers.subject ?? ''),
    parts,
    text: parts.find((p) => p.contentType === 'text/plain')?.body ?? '',
    html: parts.find((p) => p.contentType === 'text/html')?.body ?? '',
  };
}

/** The first http(s) URL in the message's text part that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}[^\\s<>"]*`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return match[0];
}
