import type { Transporter } from 'nodemailer';
import type { AppConfig } from './config.js';
import type { Logger } from './logger.js';
import { escapeHtml } from './html-escape.js';

/** One message: every message has a plain-text part and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** False without SMTP_URL: nothing is sent, and the app says so where a message would have been sent. */
  readonly enabled: boolean;
  /** Delivers the message; throws when the SMTP server refuses it or cannot be reached. */
  send(message: MailMessage): Promise<void>;
}

const BODY_STYLE =
  'font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328; max-width: 36rem; margin: 0 auto; ' +
  'padding: 1.5rem';
const BUTTON_STYLE =
  'display: inline-block; padding: 0.5rem 1rem; background: #1f6feb; color: #fff; text-decoration: none; ' +
  'border-radius: 6px';

/** The one layout of every message: a heading, paragraphs of text and one button-like link. */
export function renderMail(parts: { heading: string; paragraphs: string[]; action: { label: string; url: string } }): {
  text: string;
  html: string;
} {
  const text = [
    parts.heading,
    '',
    ...parts.paragraphs.flatMap((p) => [p, '']),
    `${parts.action.label}: ${parts.action.url}`,
    '',
  ].join('\n');
  const url = escapeHtml(parts.action.url);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(parts.heading)}</title></head>
<body style="${BODY_STYLE}">
<h1 style="font-size: 1.25rem">${escapeHtml(parts.heading)}</h1>
${parts.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${url}" style="${BUTTON_STYLE}">${escapeHtml(parts.action.label)}</a></p>
<p style="font-size: 0.875rem; color: #59636e">If the button does not work, open this address: ${url}</p>
</body></html>
`;
  return { text, html };
}

/** An SMTP failure without the URL's password (nodemailer's messages may quote the connection options). */
function safeError(err: unknown, secret: string): string {
  const message = err instanceof Error ? err.message : String(err);
  return secret.length >= 3 ? message.split(secret).join('[REDACTED]') : message;
}

/**
 * SMTP through nodemailer (loaded on the first message), or a mailer that sends nothing when SMTP_URL is unset.
 */
export function createMailer(config: Pick<AppConfig, 'SMTP_URL' | 'MAIL_FROM' | 'baseUrl'>, logger?: Logger): Mailer {
  const smtpUrl = config.SMTP_URL;
  if (!smtpUrl) {
    return {
      enabled: false,
      send: () => Promise.reject(new Error('Mail is not configured (SMTP_URL is unset).')),
    };
  }
  const password = decodeURIComponent(new URL(smtpUrl).password);
  const host = new URL(config.baseUrl).hostname;
  // An IP address is no mail domain: `localhost` then (MAIL_FROM sets a real one).
  const from = config.MAIL_FROM ?? `SEO Audit Platform <no-reply@${/[a-z]/i.test(host) ? host : 'localhost'}>`;
  let transport: Promise<Transporter> | null = null;
  return {
    enabled: true,
    async send(message) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      try {
        await (await transport).sendMail({ from, ...message });
      } catch (err) {
        const reason = safeError(err, password);
        logger?.warn({ component: 'mail', code: (err as { code?: string }).code }, `mail not sent: ${reason}`);
        // No `cause`: nodemailer's error carries the SMTP dialogue, which a logger would print with it.
        // eslint-disable-next-line preserve-caught-error
        throw new Error(`The message could not be sent: ${reason}`);
      }
    },
  };
}
