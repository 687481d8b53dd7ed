import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it: the envelope and the raw RFC 5322 text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  port: number;
  messages: ReceivedMail[];
  /** The first message to `address` (case-insensitive) received from now or already, within `timeoutMs`. */
  waitFor(address: string, timeoutMs?: number, after?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), without TLS or authentication requirements, that keeps what it
 * receives; with `dir`, each message is also written there as `<n>.json` for another process to read.
 */
export async function startSmtpSink(options: { port?: number; dir?: string } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  if (options.dir) mkdirSync(options.dir, { recursive: true });
  const server = new SMTPServer({
    // Any credentials are taken (the platform sends the ones in SMTP_URL), over plain TCP.
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        messages.push(mail);
        if (options.dir)
          writeFileSync(join(options.dir, `${Date.now()}-${messages.length}.json`), JSON.stringify(mail));
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    messages,
    waitFor(address, timeoutMs = 10_000, after = 0) {
      const find = () =>
        messages.slice(after).find((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const check = () => {
          const m = find();
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no message to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
