/**
 * META_DESCRIPTION_SAME_AS_TITLE, the check added as one definition (src/seo/checks/meta/description.ts): a meta
 * description that is the title again, ignoring case and surrounding spaces. Pages of real manuals (a Python manual
 * page's head) pass.
 */
import { describe, expect, it } from 'vitest';
import { runPageChecks, type PageFetch } from '../../../src/seo/checks/index.js';
import { suggestFix } from '../../../src/seo/fixes/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

const URL_ = 'https://garden.test/roses/pruning';

function verdict(head: string): { state: string; evidence?: Record<string, unknown> } {
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head>` + '<body><h1>Roses</h1></body></html>';
  const headers = { 'content-type': 'text/html; charset=utf-8' };
  const page: PageFetch = { url: URL_, finalUrl: URL_, status: 200, depth: 0, redirects: [], bytes: 900, headers };
  const result = runPageChecks(extractPageFacts(html, { url: URL_, headers, status: 200 }), page).find(
    (r) => r.code === 'META_DESCRIPTION_SAME_AS_TITLE',
  )!;
  return { state: !result.applicable ? 'n/a' : result.failed ? 'fail' : 'pass', evidence: result.evidence };
}

const TITLE = 'Pruning roses in late winter, step by step';

describe('META_DESCRIPTION_SAME_AS_TITLE', () => {
  it('fails a description that is the title, in another case and with spaces around it', () => {
    const found = verdict(`<title>${TITLE}</title><meta name="description" content="  ${TITLE.toUpperCase()} ">`);
    expect(found).toEqual({ state: 'fail', evidence: { description: TITLE.toUpperCase() } });
  });

  it('passes a description that says more than the title, even when it starts with it', () => {
    expect(verdict(`<title>${TITLE}</title><meta name="description" content="${TITLE}: tools and timing.">`)).toEqual({
      state: 'pass',
      evidence: undefined,
    });
  });

  it('passes the head of a Python manual page (title and description differ)', () => {
    const head =
      '<title>Built-in Functions &#8212; Python 3.11.2 documentation</title>' +
      '<meta name="description" content="The Python interpreter has a number of functions and types built into it.">';
    expect(verdict(head).state).toBe('pass');
  });

  it('does not apply without a title or without a description (other checks report those)', () => {
    expect(verdict(`<meta name="description" content="${TITLE}">`).state).toBe('n/a');
    expect(verdict(`<title>${TITLE}</title>`).state).toBe('n/a');
  });

  it('proposes a description of its own, not the title again', () => {
    const fix = suggestFix({
      code: 'META_DESCRIPTION_SAME_AS_TITLE',
      url: URL_,
      evidence: { description: TITLE },
      page: null,
    });
    expect(fix.summary).toContain('says more than its title');
    expect(fix.code ?? '').not.toContain(`content="${TITLE}"`);
  });
});
