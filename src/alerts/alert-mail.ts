import { escapeHtml } from '../platform/html-escape.js';
import type { MailMessage } from '../platform/mail.js';

/**
 * The alert e-mails: an immediate alert and the weekly digest, each with a plain-text part and an HTML part (the
 * platform's mail layout: system font, one column), and in every one the recipient's own unsubscribe link.
 */

export interface MailLinks {
  /** Turns every alert e-mail of the recipient off, after a confirmation (no sign-in needed). */
  unsubscribeUrl: string;
  /** The Alerts page where the e-mails are chosen. */
  preferencesUrl: string;
}

const BODY_STYLE =
  'font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328; max-width: 36rem; margin: 0 auto; ' +
  'padding: 1.5rem';
const BUTTON_STYLE =
  'display: inline-block; padding: 0.5rem 1rem; background: #1f6feb; color: #fff; text-decoration: none; ' +
  'border-radius: 6px';
const FOOTER_STYLE = 'font-size: 0.875rem; color: #59636e; border-top: 1px solid #d1d9e0; padding-top: 1rem';

const footerText = (links: MailLinks) => [
  '—',
  `You receive this because you chose alert e-mails for this project. Choose which: ${links.preferencesUrl}`,
  `Unsubscribe from every alert e-mail: ${links.unsubscribeUrl}`,
];

const footerHtml = (links: MailLinks) =>
  `<p style="${FOOTER_STYLE}">You receive this because you chose alert e-mails for this project. ` +
  `<a href="${escapeHtml(links.preferencesUrl)}">Choose which</a> · ` +
  `<a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe from every alert e-mail</a></p>`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="${BODY_STYLE}">
${body}
</body></html>
`;
}

/** An alert as it happened: what changed, the lines that say where, and a link into the web app. */
export function renderAlertMail(
  to: string,
  alert: { projectName: string; title: string; lines: string[]; url: string },
  links: MailLinks,
): MailMessage {
  const subject = `[${alert.projectName}] ${alert.title}`;
  const text = [
    `${alert.projectName}: ${alert.title}`,
    '',
    ...alert.lines.map((l) => `- ${l}`),
    '',
    `Open in the platform: ${alert.url}`,
    '',
    ...footerText(links),
    '',
  ].join('\n');
  const html = page(
    subject,
    `<p style="color: #59636e; margin: 0">${escapeHtml(alert.projectName)}</p>
<h1 style="font-size: 1.25rem; margin-top: 0.25rem">${escapeHtml(alert.title)}</h1>
<ul>
${alert.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('\n')}
</ul>
<p><a href="${escapeHtml(alert.url)}" style="${BUTTON_STYLE}">Open in the platform</a></p>
${footerHtml(links)}`,
  );
  return { to, subject, text, html };
}

/** One project in the weekly digest, ready to print. */
export interface DigestProjectView {
  name: string;
  url: string;
  /** "Overall score 80 (up 6 from 74)", "No completed audit this week (latest score 74)". */
  scoreLine: string;
  /** The week's audits' overall scores, oldest first. */
  weekScores: number[];
  criticalIssues: { title: string; urls: number }[];
  gainers: string[];
  losers: string[];
}

export function renderDigestMail(
  to: string,
  digest: { period: string; projects: DigestProjectView[] },
  links: MailLinks,
): MailMessage {
  const subject = `Weekly SEO digest: ${digest.period}`;
  const textOf = (p: DigestProjectView) => [
    `${p.name} (${p.url})`,
    `  ${p.scoreLine}`,
    ...(p.weekScores.length > 1 ? [`  Scores this week: ${p.weekScores.join(' → ')}`] : []),
    p.criticalIssues.length
      ? `  New critical issues: ${p.criticalIssues.map((i) => `${i.title} (${i.urls})`).join('; ')}`
      : '  No new critical issues.',
    ...(p.gainers.length ? [`  Keywords up: ${p.gainers.join('; ')}`] : []),
    ...(p.losers.length ? [`  Keywords down: ${p.losers.join('; ')}`] : []),
    ...(!p.gainers.length && !p.losers.length ? ['  No keyword moved.'] : []),
    '',
  ];
  const text = [subject, '', ...digest.projects.flatMap(textOf), ...footerText(links), ''].join('\n');
  const list = (label: string, items: string[]) =>
    items.length
      ? `<p style="margin-bottom: 0.25rem"><strong>${label}</strong></p><ul>${items
          .map((i) => `<li>${escapeHtml(i)}</li>`)
          .join('')}</ul>`
      : '';
  const htmlOf = (p: DigestProjectView) => `<h2 style="font-size: 1.1rem; margin-bottom: 0.25rem">
<a href="${escapeHtml(p.url)}">${escapeHtml(p.name)}</a></h2>
<p style="margin-top: 0">${escapeHtml(p.scoreLine)}${
    p.weekScores.length > 1 ? ` · scores this week: ${escapeHtml(p.weekScores.join(' → '))}` : ''
  }</p>
${
  p.criticalIssues.length
    ? list(
        'New critical issues',
        p.criticalIssues.map((i) => `${i.title} (${i.urls} page${i.urls === 1 ? '' : 's'})`),
      )
    : '<p>No new critical issues.</p>'
}
${list('Keywords up', p.gainers)}${list('Keywords down', p.losers)}${
    !p.gainers.length && !p.losers.length ? '<p>No keyword moved.</p>' : ''
  }`;
  const html = page(
    subject,
    `<h1 style="font-size: 1.25rem">${escapeHtml(subject)}</h1>
${digest.projects.map(htmlOf).join('\n')}
${footerHtml(links)}`,
  );
  return { to, subject, text, html };
}
