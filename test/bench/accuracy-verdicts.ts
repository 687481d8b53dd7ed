/**
 * Disagreements between Lighthouse and us that a person has read on the page itself, and who is right. The accuracy
 * bench prints each disagreement with the review that matches it, or "not reviewed": a new kind of disagreement is
 * read by hand and added here, with the reason, never waved through.
 */

export interface DisagreementCase {
  site: string;
  audit: string;
  url: string;
  ours: 'pass' | 'fail';
  lighthouse: 'pass' | 'fail';
}

export interface Review {
  right: 'ours' | 'lighthouse' | 'linkinator' | 'both';
  why: string;
}

interface ReviewRule extends Review {
  audit: string;
  ours: 'pass' | 'fail';
  /** Limits the rule to URLs that match (a kind of page); every URL when absent. */
  url?: RegExp;
  site?: string;
}

const REVIEWS: readonly ReviewRule[] = [
  {
    site: 'apache',
    audit: 'meta-description',
    ours: 'pass',
    url: /\/$/,
    right: 'ours',
    why:
      'the manual\'s / holds only <meta http-equiv="refresh" content="0; URL=en/index.html">: search engines follow ' +
      'an instant refresh as a redirect, so the page has no description of its own to miss (its target has)',
  },
  {
    site: 'sqlite',
    audit: 'link-text',
    ours: 'fail',
    url: /\/$/,
    right: 'ours',
    why:
      'the link text is "More Information..." (to about.html): Lighthouse compares the text with its list as ' +
      'written, so the ellipsis lets it pass; the words are as generic as "more information"',
  },
  {
    site: 'sqlite',
    audit: 'image-alt',
    ours: 'pass',
    url: /\/$/,
    right: 'lighthouse',
    why:
      'the sponsor logos are written by a script (innerHTML) with no alt: Lighthouse renders the page, our html ' +
      'rendering mode reads the HTML as served (browser rendering mode sees them)',
  },
  {
    site: 'gtk3',
    audit: 'image-alt',
    ours: 'fail',
    url: /\/(?:GtkLevelBar|GtkSearchEntry|GtkStatusbar)\.html$/,
    right: 'ours',
    why:
      'the widget\'s picture in the page header (<td class="gallery_image"><img src="levelbar.png"></td>) has no ' +
      'alt attribute at all, read in the file; why axe-core passed it there is not known',
  },
];

export function reviewOf(c: DisagreementCase): Review | null {
  const rule = REVIEWS.find(
    (r) => r.audit === c.audit && r.ours === c.ours && (!r.site || r.site === c.site) && (!r.url || r.url.test(c.url)),
  );
  return rule ? { right: rule.right, why: rule.why } : null;
}

/** A broken link one side reports and the other does not, read by hand: who is right. */
interface LinkReviewRule extends Review {
  /** The side that reports the link broken. */
  only: 'ours' | 'linkinator';
  url: RegExp;
}

const LINK_REVIEWS: readonly LinkReviewRule[] = [
  {
    only: 'linkinator',
    url: /\/[^/?#]+@[^/?#]+\.[a-z]+$/i,
    right: 'ours',
    why:
      'DocBook\'s <link rev="made" href="list@host">: page metadata that no browser or search engine fetches ' +
      '(the same href in an <a> is reported by us too)',
  },
  {
    only: 'linkinator',
    url: /\/_static\/(?:searchtools|language_data)\.js$/,
    right: 'ours',
    why:
      'Sphinx loads these on search.html alone, which the site names only in <link rel="search"> and <form ' +
      'action>: crawlers follow neither, so the page and its scripts are outside the crawl (linkinator follows both)',
  },
];

export function linkReviewOf(only: 'ours' | 'linkinator', url: string): Review | null {
  const rule = LINK_REVIEWS.find((r) => r.only === only && r.url.test(url));
  return rule ? { right: rule.right, why: rule.why } : null;
}
