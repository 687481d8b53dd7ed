import { inlineList, plural } from '../../fixes/fix-rule-context.js';
import { headerSnippet } from '../../fixes/hygiene-fix-rules.js';
import { shorten } from '../../fixes/markup-text.js';
import {
  contentTypeOptionsVerdict,
  cspVerdict,
  frameProtectionVerdict,
  hstsShortVerdict,
  hstsVerdict,
  insecureCookies,
  parseResponseHeaders,
} from '../../headers/response-verdicts.js';
import { fail, pass } from '../check-outcome.js';
import { CHECK_THRESHOLDS as T } from '../check-thresholds.js';
import { defineCheck } from '../define-check.js';
import {
  capitalize,
  formatNumber,
  FRAME_PROBLEMS,
  listTable,
  numberAt,
  stringAt,
  stringsAt,
  textCell,
} from '../evidence-presenters.js';
import { notApplicable, siteResult, startHeaderCheck } from '../hygiene-checks.js';

/** Codes other modules name: they import these constants, and write no check code themselves. */
export const TECH_HSTS_SHORT = 'TECH_HSTS_SHORT';
export const TECH_CSP_MISSING = 'TECH_CSP_MISSING';
export const TECH_CONTENT_TYPE_OPTIONS_MISSING = 'TECH_CONTENT_TYPE_OPTIONS_MISSING';
export const TECH_CLICKJACKING_UNPROTECTED = 'TECH_CLICKJACKING_UNPROTECTED';

export const SECURITY_HEADER_CHECKS = [
  defineCheck({
    code: TECH_CSP_MISSING,
    title: 'Missing Content-Security-Policy',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The https start page sends no Content-Security-Policy header (Report-Only does not count).',
    scoreReason: {
      lighthouse: 'csp-xss (best practices)',
    },
    why:
      'A Content-Security-Policy limits which scripts may run, so an injected script (XSS) cannot deface pages, ' +
      'steal sessions or inject spam links that search engines then see on your site.',
    howToFix:
      'Send a Content-Security-Policy header, starting with a report-only policy to find what the pages load, ' +
      "for example \"default-src 'self'; object-src 'none'; base-uri 'self'\", then enforce it.",
    evidence: {
      kind: 'HEADERS',
      keys: ['reportOnly'],
      present: (e, view) => {
        if (e.reportOnly === true)
          view.fact('Sent instead', { text: 'Content-Security-Policy-Report-Only (reports, blocks nothing)' });
      },
    },
    headersTool: cspVerdict,
    evaluate: ({ input }) =>
      startHeaderCheck('TECH_CSP_MISSING', input.startResponse, (headers) => {
        const verdict = cspVerdict(headers);
        return verdict.present ? null : { reportOnly: verdict.reportOnly };
      }),
    fix: (ctx) => ({
      summary: `Send a Content-Security-Policy from ${ctx.host || 'the site'}`,
      steps: [
        ctx.evidence.boolean('reportOnly')
          ? 'The site sends only Content-Security-Policy-Report-Only: once its reports are clean, send the same ' +
            'policy as Content-Security-Policy.'
          : 'No Content-Security-Policy is sent: start with the policy below in Report-Only mode and watch reports.',
        'Add the origins of your scripts, styles, fonts and images to the policy, then enforce it.',
      ],
      code: headerSnippet('Content-Security-Policy', "default-src 'self'; object-src 'none'; base-uri 'self'"),
    }),
  }),
  defineCheck({
    code: TECH_CONTENT_TYPE_OPTIONS_MISSING,
    title: 'Missing X-Content-Type-Options',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The https start page does not send X-Content-Type-Options: nosniff.',
    scoreReason: {},
    why:
      "Without X-Content-Type-Options: nosniff, browsers may guess a response's type and run an uploaded file " +
      'as a script or stylesheet, which attackers use to inject content.',
    howToFix:
      'Send "X-Content-Type-Options: nosniff" on every response from the web server or CDN, and make sure each ' +
      'response carries the right Content-Type.',
    evidence: {
      kind: 'HEADERS',
      // A null header is the failure itself (the header is absent).
      keys: ['header'],
      present: (e, view) => {
        const header = stringAt(e, 'header');
        if (header !== null)
          view.table('Response header', ['Header', 'Value'], [[{ text: 'X-Content-Type-Options' }, textCell(header)]]);
      },
    },
    headersTool: contentTypeOptionsVerdict,
    evaluate: ({ input }) =>
      startHeaderCheck('TECH_CONTENT_TYPE_OPTIONS_MISSING', input.startResponse, (headers) => {
        const verdict = contentTypeOptionsVerdict(headers);
        return verdict.nosniff ? null : { header: verdict.value };
      }),
    fix: (ctx) => {
      const header = ctx.evidence.string('header');
      return {
        summary: `Send X-Content-Type-Options: nosniff from ${ctx.host || 'the site'}`,
        steps: [
          header
            ? `The site sends X-Content-Type-Options: ${shorten(header, 80)}, ` +
              'which browsers ignore: it must be nosniff.'
            : 'The site does not send X-Content-Type-Options.',
          'Add the header to every response in the web server or CDN configuration.',
        ],
        code: headerSnippet('X-Content-Type-Options', 'nosniff'),
      };
    },
  }),
  defineCheck({
    code: TECH_CLICKJACKING_UNPROTECTED,
    title: 'No clickjacking protection',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description:
      'The https start page sends neither X-Frame-Options DENY/SAMEORIGIN nor a CSP frame-ancestors without *.',
    scoreReason: {},
    why:
      'A page any site may embed in a frame can be overlaid with a decoy (clickjacking), tricking visitors into ' +
      'clicks they did not mean; browsers block it only when told to.',
    howToFix:
      "Send \"Content-Security-Policy: frame-ancestors 'self'\" (or 'none'), and X-Frame-Options: SAMEORIGIN (or " +
      'DENY) for older browsers; allow the specific partner origins that must embed the page, never *.',
    evidence: {
      kind: 'HEADERS',
      keys: ['reason', 'header'],
      present: (e, view) => {
        const reason = stringAt(e, 'reason');
        if (reason !== null) view.fact('Problem', { text: FRAME_PROBLEMS[reason] ?? capitalize(reason) });
        view.fact('Header value', textCell(stringAt(e, 'header')));
      },
    },
    headersTool: frameProtectionVerdict,
    evaluate: ({ input }) =>
      startHeaderCheck('TECH_CLICKJACKING_UNPROTECTED', input.startResponse, (headers) => {
        const verdict = frameProtectionVerdict(headers);
        return verdict.protected ? null : { reason: verdict.reason, header: verdict.value };
      }),
    fix: (ctx) => ({
      summary: `Stop other sites from framing ${ctx.host || 'the site'}`,
      steps: [
        ctx.evidence.string('header')
          ? `The site sends "${shorten(ctx.evidence.string('header') ?? '', 100)}", which does not restrict framing.`
          : 'The site sends neither X-Frame-Options nor CSP frame-ancestors.',
        "Send CSP frame-ancestors 'self' (list partner origins that must embed pages) and X-Frame-Options: " +
          'SAMEORIGIN for older browsers.',
      ],
      code:
        headerSnippet('Content-Security-Policy', "frame-ancestors 'self'") +
        '\n\n' +
        headerSnippet('X-Frame-Options', 'SAMEORIGIN'),
    }),
  }),
  defineCheck({
    code: TECH_HSTS_SHORT,
    title: 'HSTS max-age too short',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'The start page enables HSTS with a max-age under one year (31,536,000 seconds).',
    scoreReason: {},
    why:
      'HSTS with a short max-age expires soon after a visit, so returning visitors may again reach the site over ' +
      "plain http first; browsers' preload list requires at least one year.",
    howToFix:
      'Raise the Strict-Transport-Security max-age to at least 31536000 (one year), for example ' +
      '"max-age=31536000; includeSubDomains" once every subdomain serves https.',
    evidence: {
      kind: 'HEADERS',
      keys: ['header', 'maxAge'],
      present: (e, view) => {
        const header = stringAt(e, 'header');
        if (header !== null)
          view.table(
            'Response header',
            ['Header', 'Value'],
            [[{ text: 'Strict-Transport-Security' }, textCell(header)]],
          );
        const maxAge = numberAt(e, 'maxAge');
        if (maxAge !== null)
          view.fact('max-age', { text: `${formatNumber(maxAge)} s (${formatNumber(maxAge / 86_400)} days)` });
      },
    },
    headersTool: hstsShortVerdict,
    evaluate: ({ input }) => {
      if (!input.hsts) return notApplicable('TECH_HSTS_SHORT');
      const header = input.hsts.header;
      const headers = parseResponseHeaders(header === null ? {} : { 'strict-transport-security': header });
      const verdict = hstsShortVerdict(hstsVerdict(headers, input.hsts.https));
      if (verdict === null) return notApplicable('TECH_HSTS_SHORT');
      return siteResult('TECH_HSTS_SHORT', verdict.short, [
        { url: input.startUrl, evidence: { header, maxAge: verdict.maxAge } },
      ]);
    },
    fix: (ctx) => {
      const maxAge = ctx.evidence.number('maxAge');
      return {
        summary: 'Raise the HSTS max-age to at least one year',
        steps: [
          maxAge !== null
            ? `Strict-Transport-Security has max-age=${maxAge} (about ${plural(Math.round(maxAge / 86_400), 'day')}).`
            : 'Strict-Transport-Security has a max-age under one year.',
          `Set max-age=${T.hstsMinMaxAge}; add includeSubDomains once every subdomain serves https.`,
        ],
        code: headerSnippet('Strict-Transport-Security', `max-age=${T.hstsMinMaxAge}; includeSubDomains`),
      };
    },
  }),
  defineCheck({
    code: 'TECH_COOKIE_INSECURE',
    title: 'Cookie without Secure',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    siteFact: true,
    description: 'An https page sets a cookie without the Secure attribute, so it may be sent over plain http.',
    scoreReason: {
      ours: 'A security hygiene fact of the server: NOTICE, charged once for the site. Was a page-level WARNING.',
    },
    why:
      'A cookie without the Secure attribute is also sent over plain http, where anyone on the network can read ' +
      'or change it, so a session can be hijacked even on an https site.',
    howToFix:
      'Add the Secure attribute to every cookie the site sets (and HttpOnly and SameSite=Lax to session cookies), ' +
      'in the application, framework session settings or the reverse proxy.',
    evidence: {
      kind: 'HEADERS',
      keys: ['count', 'cookies'],
      present: (e, view) =>
        listTable(view, 'Cookies set without Secure', 'Cookie', stringsAt(e, 'cookies'), numberAt(e, 'count')),
    },
    evaluate: ({ page, responded, https }) => {
      if (!responded) return null;
      const cookies = insecureCookies(parseResponseHeaders(page.headers), https);
      if (cookies === null) return null;
      return cookies.names.length > 0
        ? fail({ count: cookies.names.length, cookies: cookies.names.slice(0, 10) })
        : pass();
    },
    fix: (ctx) => {
      const cookies = ctx.evidence.strings('cookies', 10);
      const count = ctx.evidence.number('count') ?? cookies.length;
      return {
        summary: `Add Secure to ${plural(count, 'cookie')} set by ${shorten(ctx.path, 80)}`,
        steps: [
          `Set without Secure: ${inlineList(cookies, count)}.`,
          'Add Secure (and HttpOnly and SameSite=Lax for session cookies) where the application or framework sets ' +
            'them; PHP: session.cookie_secure=1, Express: cookie: { secure: true }.',
          'Or have the reverse proxy add it to every cookie (nginx below).',
        ],
        code:
          `${cookies[0] ?? 'session'}=…; Path=/; Secure; HttpOnly; SameSite=Lax\n\n` +
          '# nginx\nproxy_cookie_flags ~ secure;',
      };
    },
  }),
] as const;
