import { proposeDescription } from '../../fixes/description-proposal.js';
import { inlineList } from '../../fixes/fix-rule-context.js';
import { brandFromHost, collapseWhitespace, shorten } from '../../fixes/markup-text.js';
import { AI_SEARCH_AGENTS, site } from '../../fixes/technical-fix-rules.js';
import { brandOf } from '../../fixes/title-proposal.js';
import { defineCheck } from '../define-check.js';
import { listCell, numberAt, statusCell, stringsAt } from '../evidence-presenters.js';
import { notApplicable, result, siteUrl } from '../site-check-helpers.js';

export const AI_SEARCH_CHECKS = [
  defineCheck({
    code: 'TECH_AI_SEARCH_BLOCKED',
    title: 'AI search crawlers blocked',
    severity: 'WARNING',
    category: 'TECHNICAL',
    scope: 'site',
    description: 'robots.txt blocks OAI-SearchBot, ChatGPT-User, PerplexityBot or Claude-User.',
    scoreReason: {
      ours: 'Not shown in AI answers: shown worse.',
    },
    why:
      'These agents fetch pages to cite and link them in AI search and assistant answers; blocking them keeps ' +
      'your pages out of those answers. Crawlers for model training, such as GPTBot, are separate.',
    howToFix:
      'If you want to appear in AI search answers, allow OAI-SearchBot, ChatGPT-User, PerplexityBot and ' +
      'Claude-User in robots.txt (give them a group with Allow: / or remove the rules that block them); training ' +
      'crawlers such as GPTBot can stay blocked.',
    evidence: {
      kind: 'VALUES',
      keys: ['agents'],
      present: (e, view) => view.fact('Blocked crawlers', listCell(stringsAt(e, 'agents'))),
    },
    evaluate: ({ robots }) => {
      if (!robots?.parsed) return notApplicable('TECH_AI_SEARCH_BLOCKED');
      const ai = robots.robots.aiBlockedAgents ?? [];
      return result('TECH_AI_SEARCH_BLOCKED', ai.length > 0, [{ url: robots.url, evidence: { agents: ai } }]);
    },
    fix: (ctx) => {
      const agents = ctx.evidence.strings('agents', 4);
      const list = agents.length > 0 ? agents : AI_SEARCH_AGENTS;
      return {
        summary: `Allow ${inlineList(list, list.length, 4)} in robots.txt`,
        steps: [
          `robots.txt blocks ${inlineList(list, list.length, 4)}, the crawlers that fetch pages for answers ` +
            `and citations in ChatGPT, Perplexity and Claude; your pages cannot be cited there.`,
          'If you want to appear in AI search answers, add the groups below to robots.txt (they apply to those ' +
            'agents only). Training crawlers such as GPTBot and ClaudeBot are separate and can stay blocked.',
        ],
        code: list.map((agent) => `User-agent: ${agent}\nAllow: /`).join('\n\n'),
      };
    },
  }),
  defineCheck({
    code: 'TECH_LLMS_TXT_MISSING',
    title: 'Missing llms.txt',
    severity: 'NOTICE',
    category: 'TECHNICAL',
    scope: 'site',
    description: '/llms.txt does not answer 200.',
    scoreReason: {
      semrush: 'notice',
      ours: "The rule's own NOTICE example.",
    },
    why:
      'llms.txt is a proposed convention that gives language models a curated summary of a site; few systems use ' +
      'it so far and search engines do not rank on it, so it is optional.',
    howToFix:
      'If you want to offer one, publish a Markdown file at /llms.txt that answers 200, with a short description ' +
      'of the site and links to its most useful pages, and keep it up to date.',
    evidence: {
      kind: 'VALUES',
      keys: ['status'],
      present: (e, view) => view.fact('Status', statusCell(numberAt(e, 'status'), null, true)),
    },
    evaluate: ({ input }) => {
      if (!input.llmsTxt) return notApplicable('TECH_LLMS_TXT_MISSING');
      return result('TECH_LLMS_TXT_MISSING', input.llmsTxt.status !== 200, [
        { url: siteUrl(input, '/llms.txt'), evidence: { status: input.llmsTxt.status } },
      ]);
    },
    fix: (ctx) => {
      const page = ctx.page;
      const name = brandOf(page, ctx.url) || brandFromHost(ctx.host);
      const summary = page?.description
        ? collapseWhitespace(page.description)
        : page
          ? proposeDescription(page, ctx.url).text
          : `${name} website`;
      const links = (page?.links ?? [])
        .filter((link) => link.url && link.text && link.url.startsWith(site(ctx)) && link.url !== `${site(ctx)}/`)
        .filter((link, index, all) => all.findIndex((other) => other.url === link.url) === index)
        .slice(0, 6);
      const lines =
        links.length > 0
          ? links.map((link) => `- [${shorten(link.text, 60)}](${link.url})`)
          : [`- [Home](${site(ctx)}/)`];
      return {
        summary: `Publish an llms.txt at ${site(ctx)}/llms.txt`,
        steps: [
          '/llms.txt does not answer 200. The (still informal) llms.txt convention gives AI assistants a short ' +
            'Markdown map of the site.',
          'Create it at the site root with the site name, a one-paragraph summary and links to the key pages ' +
            '(a starting point from the home page is below).',
          'Keep it short and update it when the main sections change.',
        ],
        code: `# ${name}\n\n> ${summary}\n\n## Main pages\n\n${lines.join('\n')}`,
      };
    },
  }),
] as const;
