import type { CheckCode } from '../checks/index.js';
import { fieldOf } from './fix-evidence.js';
import { inlineList, pageName, plural, type FixRule, type FixRuleContext } from './fix-rule-context.js';
import { escapeHtml, shorten } from './markup-text.js';

/** Browser rendering mode: the raw HTML against the rendered page (src/seo/checks/rendering-checks.ts). */
type RenderingCode = Extract<CheckCode, `RENDER_${string}`>;

/** "Next.js, Nuxt…": where the server-rendered head is written, in a sentence the steps share. */
const SSR_HINT =
  'In a framework app this is the server-rendered head: Next.js metadata or next/head, Nuxt useHead/useSeoMeta, ' +
  'Angular Meta/Title with server rendering, or react-helmet with a prerenderer.';

function quoted(value: string | null, fallback: string): string {
  return value === null ? fallback : `"${shorten(value, 120)}"`;
}

function sideVerdicts(ctx: FixRuleContext, fallbackRaw: string, fallbackRendered: string): [string, string] {
  return [ctx.evidence.string('raw') ?? fallbackRaw, ctx.evidence.string('rendered') ?? fallbackRendered];
}

export const RENDERING_FIX_RULES: Record<RenderingCode, FixRule> = {
  RENDER_TITLE_CHANGED: (ctx) => {
    const raw = ctx.evidence.string('raw');
    const rendered = ctx.evidence.string('rendered');
    const final = rendered ?? ctx.page?.title ?? null;
    return {
      summary: `Serve the final title of ${pageName(ctx)} in the HTML instead of changing it with JavaScript`,
      steps: [
        `The HTML as served has the title ${quoted(raw, 'one title')}, and scripts change it to ` +
          `${quoted(rendered, 'another')}: crawlers that do not render and link previews see the first one.`,
        'Decide which title is right and write it into the server-rendered head; then remove or align the ' +
          'client-side code (router, head manager, SEO plugin) that replaces it.',
        SSR_HINT,
      ],
      code: final ? `<title>${escapeHtml(final)}</title>` : undefined,
    };
  },
  RENDER_TITLE_ONLY_RENDERED: (ctx) => {
    const rendered = ctx.evidence.string('rendered') ?? ctx.page?.title ?? null;
    return {
      summary: `Put the title of ${pageName(ctx)} into the HTML as served`,
      steps: [
        `The page has no title until JavaScript sets ${quoted(rendered, 'one')}; social previews and crawlers ` +
          'that do not run scripts see a page without a title.',
        'Render the title on the server (server-side rendering, static generation or prerendering) so that the ' +
          'served HTML carries the same title element the app sets.',
        SSR_HINT,
      ],
      code: rendered ? `<title>${escapeHtml(rendered)}</title>` : undefined,
    };
  },
  RENDER_DESCRIPTION_CHANGED: (ctx) => {
    const raw = ctx.evidence.string('raw');
    const after = ctx.evidence.string('rendered');
    const rendered = after ?? ctx.page?.description ?? null;
    return {
      summary: `Serve the meta description of ${pageName(ctx)} in the HTML, not from JavaScript`,
      steps: [
        raw === null
          ? `The meta description ${quoted(rendered, 'set by a script')} exists only after rendering; link ` +
            'previews and crawlers that do not render see none.'
          : after === null
            ? `Scripts remove the served description ${quoted(raw, '')}: rendering search engines see none, ` +
              'while link previews still show it.'
            : `The served description ${quoted(raw, '')} is replaced by ${quoted(rendered, 'another')} when ` +
              'scripts run, so different tools show different snippets.',
        'Write the final description into the server-rendered head and keep client-side code from rewriting it.',
      ],
      code: rendered ? `<meta name="description" content="${escapeHtml(rendered)}">` : undefined,
    };
  },
  RENDER_CANONICAL_CHANGED: (ctx) => {
    const raw = ctx.evidence.string('raw');
    const rendered = ctx.evidence.string('rendered');
    const intended = raw ?? rendered ?? ctx.page?.canonical ?? ctx.url;
    return {
      summary: `Give ${pageName(ctx)} one canonical URL, the same before and after rendering`,
      steps: [
        `The served HTML says the canonical is ${raw ?? 'not set'}; after rendering it is ${rendered ?? 'removed'}. ` +
          'Search engines may follow either signal, or ignore both.',
        'Serve the correct canonical link in the HTML and remove the script that adds, removes or rewrites it; ' +
          'if the app must manage it, make it output exactly the server-rendered URL.',
      ],
      code: `<link rel="canonical" href="${escapeHtml(intended)}">`,
    };
  },
  RENDER_NOINDEX_CHANGED: (ctx) => {
    const [raw, rendered] = sideVerdicts(ctx, 'one directive', 'the other');
    const removed = raw === 'noindex';
    return {
      summary: removed
        ? `Remove noindex from the served HTML of ${pageName(ctx)} (JavaScript cannot lift it)`
        : `Stop JavaScript from adding noindex to ${pageName(ctx)}`,
      steps: [
        `The HTML as served says ${raw}; after rendering the page says ${rendered}.`,
        removed
          ? 'Google does not render a page whose HTML says noindex, so the script that removes it never runs for ' +
            'Google: the page stays out of the index. If it should be indexed, drop noindex from the HTML.'
          : 'A script adds noindex after loading, which drops a page the HTML allows from the index, often by ' +
            'mistake (a consent, paywall or error state). Remove it, or serve noindex in the HTML if intended.',
        'Check the robots meta tag and X-Robots-Tag header your server sends, and search the client code for ' +
          'code that writes a robots meta tag.',
      ],
      code: removed ? '<meta name="robots" content="index, follow">' : undefined,
    };
  },
  RENDER_NOFOLLOW_CHANGED: (ctx) => {
    const [raw, rendered] = sideVerdicts(ctx, 'one directive', 'the other');
    return {
      summary: `Make the robots follow directive of ${pageName(ctx)} the same before and after rendering`,
      steps: [
        `The HTML as served says ${raw}; after rendering the page says ${rendered}, so crawlers that render and ` +
          'those that do not treat its links differently.',
        'Set the intended directive in the served robots meta tag (or X-Robots-Tag header) and remove the ' +
          'client-side code that changes it.',
      ],
    };
  },
  RENDER_H1_CHANGED: (ctx) => {
    const raw = ctx.evidence.strings('raw', 3);
    const rendered = ctx.evidence.strings('rendered', 3);
    const heading = rendered[0] ?? ctx.page?.h1[0] ?? null;
    return {
      summary: `Render the main heading of ${pageName(ctx)} on the server`,
      steps: [
        `The served HTML has ${raw.length > 0 ? `the h1 ${inlineList(raw)}` : 'no h1'}; after rendering it has ` +
          `${rendered.length > 0 ? inlineList(rendered) : 'none'}.`,
        'Write the final h1 into the server-rendered markup and keep client-side code from replacing it after ' +
          'loading, so every crawler reads the same topic.',
      ],
      code: heading ? `<h1>${escapeHtml(heading)}</h1>` : undefined,
    };
  },
  RENDER_LINKS_ONLY_RENDERED: (ctx) => {
    const links = ctx.evidence.strings('links', 5);
    const count = ctx.evidence.number('count') ?? links.length;
    const first = links[0] ?? null;
    return {
      summary: `Serve the internal links of ${pageName(ctx)} in the HTML, not only from JavaScript`,
      steps: [
        count > 0
          ? `${plural(count, 'internal link')} appear only after rendering, for example ${inlineList(links, count)}.`
          : 'Some internal links appear only after rendering.',
        'Search engines find such links only when they render the page, later and with a limited budget, so ' +
          'the pages they lead to may be discovered late.',
        'Output navigation, related-page and pagination links as anchor elements with an href in the ' +
          'server-rendered HTML; buttons or click handlers that route in JavaScript are not links.',
      ],
      code: first ? `<a href="${escapeHtml(first)}">…</a>` : undefined,
    };
  },
  RENDER_CONTENT_NEEDS_JS: (ctx) => {
    const raw = ctx.evidence.number('rawWords');
    const rendered = ctx.evidence.number('renderedWords');
    return {
      summary: `Server-render the main content of ${pageName(ctx)}`,
      steps: [
        raw !== null && rendered !== null
          ? `The HTML as served holds ${plural(raw, 'word')} of visible text; the rendered page ` +
            `${plural(rendered, 'word')}.`
          : 'Most of the visible text appears only after JavaScript runs.',
        'Use server-side rendering, static generation or prerendering for the content, so that the served ' +
          'HTML carries the text and scripts only add interactivity.',
        SSR_HINT,
      ],
    };
  },
  RENDER_RESOURCE_BLOCKED_BY_ROBOTS: (ctx) => {
    const resources = ctx.evidence.strings('resources', 5);
    const count = ctx.evidence.number('count') ?? resources.length;
    const paths = [...new Set(resources.map(folderOf).filter((path): path is string => path !== null))].slice(0, 3);
    return {
      summary: `Let crawlers load the resources ${pageName(ctx)} needs to render`,
      steps: [
        count > 0
          ? `robots.txt disallows ${plural(count, 'resource')} the page loads while rendering, such as ` +
            `${inlineList(resources, count)}.`
          : 'robots.txt disallows scripts, stylesheets or data requests the page loads while rendering.',
        'Search engines obey robots.txt when rendering, so they see the page without them. Allow those ' +
          'folders or files, as below, unless they are truly not needed to render the page.',
      ],
      code: ['User-agent: *', ...(paths.length > 0 ? paths : ['/assets/']).map((path) => `Allow: ${path}`)].join('\n'),
    };
  },
  RENDER_CONSOLE_ERRORS: (ctx) => {
    const errors = ctx.evidence.strings('errors', 3);
    const count = ctx.evidence.number('count') ?? errors.length;
    return {
      summary: `Fix the JavaScript errors on ${pageName(ctx)}`,
      steps: [
        count > 0
          ? `Rendering the page logged ${plural(count, 'error')}${
              errors.length > 0 ? `, first ${inlineList(errors, count)}` : ''
            }.`
          : 'Rendering the page logged JavaScript errors.',
        'Open the page with the browser developer tools, fix each error (missing variables, failed imports, ' +
          'code that assumes a logged-in user or a browser feature), and check that the content still renders.',
      ],
    };
  },
  RENDER_FAILED_REQUESTS: (ctx) => {
    const requests = ctx.evidence.records('requests', 5);
    const count = ctx.evidence.number('count') ?? requests.length;
    const listed = requests.flatMap((request) => {
      const url = fieldOf(request, 'url');
      const reason = fieldOf(request, 'reason');
      return url ? [`${shorten(url, 120)}${reason ? ` (${shorten(reason, 60)})` : ''}`] : [];
    });
    return {
      summary: `Fix the requests that fail while ${pageName(ctx)} renders`,
      steps: [
        count > 0
          ? `${plural(count, 'request')} failed while the page rendered${
              listed.length > 0 ? `: ${listed.join('; ')}` : ''
            }.`
          : 'Requests the page makes while rendering failed.',
        'Restore missing files or correct their URLs, make API endpoints answer crawlers as they answer ' +
          'visitors, and remove requests the page no longer needs.',
      ],
    };
  },
};

/** The folder of a resource URL, for an Allow rule ("/static/js/"); null when it does not parse. */
function folderOf(url: string): string | null {
  try {
    const path = new URL(url).pathname;
    return path.slice(0, path.lastIndexOf('/') + 1) || '/';
  } catch {
    return null;
  }
}
