import { rmSync } from 'node:fs';
import { startSmtpSink } from '../../support/smtp-sink';
import { MAIL_DIR, MAIL_PORT } from './mail-sink';

/** Starts the SMTP server the platform delivers to (SMTP_URL in playwright.config.ts); stopped after the run. */
export default async function setup(): Promise<() => Promise<void>> {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  const sink = await startSmtpSink({ port: MAIL_PORT, dir: MAIL_DIR });
  return () => sink.close();
}
