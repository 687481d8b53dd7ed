import { fieldOf } from '../../fixes/fix-evidence.js';
import { inlineList, pageName, plural } from '../../fixes/fix-rule-context.js';
import { shorten } from '../../fixes/markup-text.js';
import { folderOf } from '../../fixes/rendering-fix-rules.js';
import { fail, pass } from '../check-outcome.js';
import { defineCheck } from '../define-check.js';
import { listTable, numberAt, recordsAt, stringAt, stringsAt, textCell, urlCell } from '../evidence-presenters.js';
import { SAMPLE, compared } from '../rendering-checks.js';

export const BROWSER_CHECKS = [
  defineCheck({
    code: 'RENDER_RESOURCE_BLOCKED_BY_ROBOTS',
    title: 'Rendering resources blocked by robots.txt',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description:
      'robots.txt disallows scripts, stylesheets or data requests of the site that the page needs to render.',
    scoreReason: {
      semrush: 'warning',
    },
    why:
      'Search engines obey robots.txt when they render: scripts, styles or data requests it disallows are not ' +
      'loaded, so they may see a broken or empty page.',
    howToFix:
      'Allow crawlers to fetch the scripts, stylesheets and API endpoints the page needs to render, for example ' +
      'by removing Disallow rules for asset folders or adding Allow rules for them in robots.txt.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'resources'],
      present: (e, view) =>
        view.table(
          'Resources robots.txt disallows',
          ['Resource'],
          stringsAt(e, 'resources').map((url) => [urlCell(url, view.pageUrl)]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: compared(({ rendering }) =>
      rendering.blockedByRobots.length > 0
        ? fail({ count: rendering.blockedByRobots.length, resources: rendering.blockedByRobots.slice(0, SAMPLE) })
        : pass(),
    ),
    fix: (ctx) => {
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
        code: ['User-agent: *', ...(paths.length > 0 ? paths : ['/assets/']).map((path) => `Allow: ${path}`)].join(
          '\n',
        ),
      };
    },
  }),
  defineCheck({
    code: 'RENDER_CONSOLE_ERRORS',
    title: 'JavaScript errors',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description: 'Rendering the page logged uncaught exceptions or console errors.',
    scoreReason: {
      lighthouse: 'errors-in-console (best practices)',
    },
    why:
      'Uncaught JavaScript errors can stop a page from rendering its content, links or tags, for crawlers as ' +
      'well as for visitors.',
    howToFix:
      'Open the page with the browser console, fix the errors listed in the evidence (missing variables, failed ' +
      'imports, code that assumes browser features), and test it in a headless browser.',
    evidence: {
      kind: 'VALUES',
      keys: ['count', 'errors'],
      present: (e, view) => listTable(view, 'Console errors', 'Error', stringsAt(e, 'errors'), numberAt(e, 'count')),
    },
    evaluate: compared(({ rendering }) =>
      rendering.consoleErrorCount > 0
        ? fail({ count: rendering.consoleErrorCount, errors: rendering.consoleErrors.slice(0, SAMPLE) })
        : pass(),
    ),
    fix: (ctx) => {
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
  }),
  defineCheck({
    code: 'RENDER_FAILED_REQUESTS',
    title: 'Failed requests while rendering',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'page',
    needs: 'RENDERING_MODE',
    description:
      'Requests the page made while rendering failed: network errors, 4xx/5xx answers, refused or over budget.',
    scoreReason: {
      semrush: 'error',
      ahrefs: 'error',
      ours: "The rule's own WARNING (broken resources).",
    },
    why:
      'Scripts, styles or data the page requests while rendering failed to load, so crawlers may render it ' +
      'without parts of its content or layout.',
    howToFix:
      'Fix or remove the failing requests listed in the evidence: restore missing files, correct wrong URLs, and ' +
      'make API endpoints answer crawlers as they answer visitors.',
    evidence: {
      kind: 'RESOURCES',
      keys: ['count', 'requests'],
      present: (e, view) =>
        view.table(
          'Failed requests',
          ['Request', 'Reason'],
          recordsAt(e, 'requests').map((request) => [
            urlCell(stringAt(request, 'url') ?? '', view.pageUrl),
            textCell(stringAt(request, 'reason') ?? 'Unknown'),
          ]),
          numberAt(e, 'count') ?? 0,
        ),
    },
    evaluate: compared(({ rendering }) =>
      rendering.failedRequestCount > 0
        ? fail({
            count: rendering.failedRequestCount,
            requests: rendering.failedRequests.slice(0, SAMPLE).map(({ url, reason }) => ({ url, reason })),
          })
        : pass(),
    ),
    fix: (ctx) => {
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
  }),
] as const;
