import type { DocumentHead } from '../../lib/document-head';

export { useDocumentHead as usePageHead } from '../../lib/document-head';

export type PageHead = DocumentHead;

const SITE = 'SEO Audit Platform';

export const CATALOG_HEAD: PageHead = {
  title: `SEO check catalog: every audit check explained · ${SITE}`,
  description:
    'Every check a site audit runs: its rule, severity and category, why it matters for search, how to fix it and ' +
    'how it counts in the score.',
};

/** Over 160 characters, cut at a word and ended with an ellipsis. */
const clip = (text: string, max = 160) =>
  text.length <= max ? text : `${text.slice(0, text.lastIndexOf(' ', max - 1))}…`;

export function checkDocHead(check: { code: string; title: string; description: string; why: string }): PageHead {
  return {
    title: `${check.title} (${check.code}) · SEO check`,
    description: clip(`${check.description} ${check.why}`),
  };
}
