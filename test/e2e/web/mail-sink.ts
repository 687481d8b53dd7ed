import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseMail, type ParsedMail } from '../../support/mail-message';

/**
 * The end-to-end platform's SMTP server: a real one (smtp-server), started by global-setup.ts on E2E_MAIL_PORT
 * (default E2E_PORT + 1000: parallel runs use neighbouring E2E_PORTs),
 * writing each message it receives into MAIL_DIR, where the tests (other processes) read them.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3197);
export const MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? E2E_PORT + 1001);
export const MAIL_DIR = resolve(import.meta.dirname, '../../../dist/e2e-mail', String(MAIL_PORT));

/**
 * The newest message to `address` that the SMTP server received (and that `matches`, when given: a message sent
 * earlier to the same address must not stand in for one still on its way), waiting up to `timeoutMs` for it.
 */
export async function waitForMail(
  address: string,
  timeoutMs = 20_000,
  matches: (mail: ParsedMail) => boolean = () => true,
): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(MAIL_DIR) ? readdirSync(MAIL_DIR).sort() : [];
    for (const file of files.reverse()) {
      const mail = JSON.parse(readFileSync(resolve(MAIL_DIR, file), 'utf8')) as { to: string[]; raw: string };
      if (!mail.to.some((to) => to.toLowerCase() === address.toLowerCase())) continue;
      const parsed = parseMail(mail.raw);
      if (matches(parsed)) return parsed;
    }
    if (Date.now() > deadline) throw new Error(`no message to ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
