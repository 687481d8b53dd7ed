/**
 * Why each audit check matters and how to fix it, in plain English for SEO practitioners (one entry per code of
 * the catalog in check-catalog.ts; the Record type makes a missing code a compile error). The texts follow each
 * check's rule and thresholds as the catalog describes them (docs/scores.md).
 */
import type { CheckCode } from './check-catalog.js';

export interface CheckGuidance {
  /** Why this matters for search (crawling, indexing, ranking, snippets, users): 1-2 plain sentences, no marketing. */
  why: string;
  /** How to fix it: 1-3 concrete sentences (what to change, where; examples of good values when useful). */
  fix: string;
}

export const CHECK_GUIDANCE: Readonly<Record<CheckCode, CheckGuidance>> = {
  META_TITLE_MISSING: {
    why:
      'The title is a main clue to what a page is about and is usually shown as the headline of its search ' +
      'result; without one, search engines make up a headline from other text on the page.',
    fix:
      'Add one title element inside the head with a unique, descriptive title of about 30 to 60 characters that ' +
      'leads with the main topic, for example "Oak dining tables | Oak & Iron".',
  },
  META_TITLE_TOO_SHORT: {
    why:
      'A title under 30 characters often leaves out words people search for and gives searchers little reason to ' +
      'choose the result; search engines may also replace it with other text from the page.',
    fix:
      'Expand the title to at least 30 characters by adding what is specific to the page, such as the product ' +
      'type, a qualifier or location, and the brand, while staying within 60 characters.',
  },
  META_TITLE_TOO_LONG: {
    why:
      'Search results show only about 60 characters of a title (the real limit is its width in pixels), so a ' +
      'longer title is likely to be cut off and its last words may not be seen.',
    fix:
      'Shorten the title to 60 characters or fewer: put the most important words first, drop filler and repeated ' +
      'keywords, and shorten the brand name or move it to the end.',
  },
  META_TITLE_MULTIPLE: {
    why:
      'Browsers use only the first title element and search engines may pick any of them, so the title you ' +
      'intended may not be the one shown in the tab or in search results.',
    fix:
      'Keep exactly one title element in the head and remove the others; duplicates often come from a theme and ' +
      'an SEO plugin both printing one, so switch off the title output in one of them.',
  },
  META_TITLE_DUPLICATE: {
    why:
      'Identical titles make indexable pages look interchangeable: search engines may struggle to choose which ' +
      'one to show for a query, and searchers cannot tell the results apart.',
    fix:
      'Give every indexable page its own title naming what is specific to it, such as the product, category or ' +
      'article topic; if the pages really are the same, merge them or point the copies to one canonical URL.',
  },
  META_DESCRIPTION_MISSING: {
    why:
      'Search engines often use the meta description as the snippet under the title; without one they pick text ' +
      'from the page, which may describe it poorly. It is not a ranking factor.',
    fix:
      'Add one meta tag with name="description" to the head, holding a 70 to 160 character summary of what the ' +
      'page offers, written for people and unique to the page.',
  },
  META_DESCRIPTION_TOO_SHORT: {
    why:
      'A description under 70 characters gives searchers little to go on, and search engines are more likely to ' +
      'replace it with text taken from the page.',
    fix:
      'Extend the meta description to at least 70 characters (ideally 120 to 160): say what the page offers, a ' +
      'detail that sets it apart, and what the visitor can do there.',
  },
  META_DESCRIPTION_TOO_LONG: {
    why:
      'Snippets are cut to the space available, roughly 160 characters on desktop and fewer on mobile, so the ' +
      'end of a longer description is likely to be truncated.',
    fix:
      'Trim the meta description to 160 characters or fewer and put the key information in the first 120 ' +
      'characters, so it still reads well if a mobile result cuts it short.',
  },
  META_DESCRIPTION_MULTIPLE: {
    why:
      'When a page has several meta descriptions, search engines may use any of them or none, so the snippet you ' +
      'intended is not reliably shown.',
    fix:
      'Keep exactly one meta name="description" tag in the head and delete the others; check templates, plugins ' +
      'and tag managers, which may each add their own.',
  },
  META_DESCRIPTION_DUPLICATE: {
    why:
      'Search engines may disregard a description repeated across many pages and build snippets from page text ' +
      'instead, and identical snippets make results hard to tell apart.',
    fix:
      'Write a distinct description for each indexable page, or generate one from page-specific data such as the ' +
      'product name and key attributes or the article summary, instead of reusing a site-wide default.',
  },
  META_TAGS_IN_BODY: {
    why:
      'Search engines read titles, meta tags and canonical links only in the head; placed in the body they are ' +
      'ignored, so the page may lose its title, robots directives or canonical.',
    fix:
      'Move the title, meta and canonical link elements into the head. If they are already there in the source, ' +
      'look for an element not allowed in the head (such as img, iframe or div) before them, which ends the head ' +
      'early.',
  },
  META_VIEWPORT_MISSING: {
    why:
      'Without a viewport, mobile browsers lay the page out at desktop width and shrink it, which makes it hard ' +
      'to use on phones; Google mainly crawls and indexes the mobile version of pages.',
    fix:
      'Add meta name="viewport" content="width=device-width, initial-scale=1" to the head of every page (in the ' +
      'base template), and make sure the layout adapts to narrow screens.',
  },
  META_VIEWPORT_NO_ZOOM: {
    why:
      'Blocking zoom prevents people with low vision from enlarging text and images; Lighthouse reports it as an ' +
      'accessibility failure.',
    fix:
      'Remove user-scalable=no (or user-scalable=0) from the viewport content and either drop maximum-scale or ' +
      'set it to 5 or more, for example content="width=device-width, initial-scale=1".',
  },
  META_LANG_MISSING: {
    why:
      'Screen readers use the lang attribute to choose pronunciation and browsers use it to offer translation; ' +
      'some search engines and tools read it too, although Google detects language from the content.',
    fix:
      'Add a lang attribute to the html element giving the language of the page content, for example lang="en", ' +
      'lang="en-GB" or lang="de"; set it in the base template so every page gets it.',
  },
  META_LANG_INVALID: {
    why:
      'A lang value that is not a valid BCP 47 tag cannot be understood by browsers, screen readers or other ' +
      'tools, so it works no better than having no language at all.',
    fix:
      'Use a valid BCP 47 tag: a language code, optionally followed by a script or region, for example en, ' +
      'en-GB, pt-BR or zh-Hant. Separate parts with hyphens, not underscores (en_US), and do not use names such ' +
      'as english.',
  },
  META_CHARSET_MISSING: {
    why:
      'Without a declared encoding, browsers and crawlers have to guess it, and a wrong guess turns accented ' +
      'letters and symbols into garbled text on the page and possibly in search snippets.',
    fix:
      'Declare UTF-8 in the Content-Type response header (text/html; charset=utf-8) and add meta charset="utf-8" ' +
      'as the first element of the head, within the first 1024 bytes of the document.',
  },
  META_DOCTYPE_MISSING: {
    why:
      'Without the HTML5 doctype, browsers render the page in quirks mode, which changes layout and CSS ' +
      'behaviour and can break the design on some devices; it has no direct effect on ranking.',
    fix:
      'Put the HTML5 doctype declaration (!DOCTYPE html, in angle brackets) at the very start of every HTML ' +
      'document, before the html element; set it once in the base layout template.',
  },
  META_FAVICON_MISSING: {
    why:
      'Google can show a site favicon next to its search results, and browsers show it in tabs and bookmarks; ' +
      'without one a generic icon appears, which makes the site less distinctive.',
    fix:
      'Add a link rel="icon" to the head of the home page pointing to a square icon of at least 48 by 48 pixels ' +
      '(ICO, PNG or SVG), or serve one at /favicon.ico answering 200; do not block the icon in robots.txt.',
  },
  META_OPEN_GRAPH_MISSING: {
    why:
      'Social networks and messaging apps read Open Graph tags to build link previews; without them they guess a ' +
      'title and image or show a bare link. It has no effect on search rankings.',
    fix:
      'Add og:title, og:description, og:image (an absolute URL to an image of about 1200 by 630 pixels) and ' +
      'og:url meta property tags to the head, usually generated from the page title, description and main image.',
  },
  META_TWITTER_CARD_MISSING: {
    why:
      'X (formerly Twitter) uses the twitter:card tag to decide how a shared link is displayed; without it a ' +
      'link may show as a small summary or as plain text. It has no effect on search rankings.',
    fix:
      'Add meta name="twitter:card" content="summary_large_image" (or "summary" for a small image) to the head; ' +
      'X falls back to the Open Graph title, description and image when the twitter: equivalents are absent.',
  },
  META_JSONLD_INVALID: {
    why:
      'A JSON-LD block that does not parse is ignored entirely, so none of its structured data can be used for ' +
      'rich results or to help search engines understand the page.',
    fix:
      'Fix the JSON syntax of the application/ld+json script: common causes are trailing commas, unescaped ' +
      'double quotes or line breaks inside values, comments and unfilled template placeholders. Check it with ' +
      'the Rich Results Test.',
  },
  META_JSONLD_REQUIRED_MISSING: {
    why:
      'Rich results such as product details, review stars or breadcrumbs depend on certain properties; an entity ' +
      'missing them may be ignored for that feature, and validators report it as an error.',
    fix:
      'Add the properties the evidence lists: a Product needs a name, an FAQPage its mainEntity questions, a ' +
      'Review its author, itemReviewed and reviewRating, and a BreadcrumbList its itemListElement crumbs.',
  },
  META_HREFLANG_INVALID: {
    why:
      'Search engines ignore hreflang annotations whose code they do not understand, so the affected language or ' +
      'regional version may not be shown to the right audience.',
    fix:
      'Use an ISO 639-1 language code, optionally followed by a hyphen and an ISO 3166-1 region code, for ' +
      'example en, en-GB, de-AT or zh-Hant, or x-default; en-UK (use en-GB), en_US (use en-US) and a region ' +
      'alone are invalid.',
  },
  META_HREFLANG_RELATIVE: {
    why:
      'Google requires hreflang alternate URLs to be fully qualified; a relative URL may be resolved wrongly or ' +
      'ignored, which breaks the language set.',
    fix:
      'Write every hreflang href as an absolute URL with the scheme and host (https, then the domain, then the ' +
      'path) rather than a path such as /de/; fix it in the template or plugin that builds the alternate links.',
  },
  META_HREFLANG_NO_SELF: {
    why:
      'Each language version should list itself among its hreflang alternates, as Google documents; without the ' +
      'self-reference the set may be read as incomplete.',
    fix:
      'Add an hreflang link for the page itself, with its own language code and its own canonical URL, next to ' +
      'the entries for the other versions; every page in the set should carry the same complete list.',
  },
  META_HREFLANG_NO_RETURN: {
    why:
      'Hreflang must be confirmed from both sides: if the target page does not link back, search engines may ' +
      'ignore the pair, so the alternate version may not be shown to its audience.',
    fix:
      'On each target page, add an hreflang link back to the page that references it, using the exact URL it is ' +
      'indexed under; building the list of alternates from one shared source keeps every page in the set ' +
      'consistent.',
  },
  META_HREFLANG_NO_X_DEFAULT: {
    why:
      'x-default tells search engines which version to show people whose language or region matches none of the ' +
      'listed versions; without it they choose one themselves. It is optional.',
    fix:
      'Add an hreflang="x-default" link to every page in the set, pointing to the version for everyone else, ' +
      'usually a language selector page or the main international version.',
  },
  META_JSONLD_NO_CONTEXT: {
    why:
      'Without an @context naming schema.org, a JSON-LD block is just JSON: processors cannot tell that ' +
      '"Product" or "name" are schema.org terms, so search engines ignore the markup and no rich result can ' +
      'come of it.',
    fix:
      'Start every top-level JSON-LD object with "@context": "https://schema.org" (an array of objects ' +
      'needs it on each, or one object with an @graph list). Fix it in the template or plugin that prints ' +
      'the script.',
  },
  META_JSONLD_TYPE_MISSING: {
    why:
      'An entity without @type says nothing about what it describes, so search engines cannot match it to ' +
      'any rich result feature and skip it; validators report it as an error.',
    fix:
      'Give each top-level entity and @graph member the schema.org type it describes, for example "@type": ' +
      '"Organization", "Product" or "WebPage". A member that only points at an entity described elsewhere ' +
      'may keep just its "@id".',
  },
  META_JSONLD_ORGANIZATION_INCOMPLETE: {
    why:
      'Organization markup tells Google the name, site and logo of the business behind the page (knowledge ' +
      'panels, logo results); without a name and url, or with a relative logo URL, it cannot use them. Local ' +
      'results need a name and address.',
    fix:
      "Give the Organization its name and the site's home page url, and a LocalBusiness its name and postal " +
      'address; write the logo as an absolute URL (https://example.com/logo.png) of an image at least 112 x ' +
      '112 px.',
  },
  META_JSONLD_ARTICLE_INCOMPLETE: {
    why:
      "Google uses an article's headline, image, author and publication date for article rich results and " +
      'Top stories; it requires none of them, but markup without them gives it little to show and loses ' +
      'those features.',
    fix:
      'Add the missing properties to the Article, NewsArticle or BlogPosting: headline (the article title), ' +
      'image (an absolute URL of a large image), author (a Person or Organization with a name) and ' +
      'datePublished in ISO 8601.',
  },
  META_JSONLD_PRODUCT_NO_OFFER: {
    why:
      'Google shows product rich results (price, availability, rating stars) only for a Product with an ' +
      'offer, a review or an aggregate rating; a Product with none of them is reported as invalid and shows ' +
      'nothing.',
    fix:
      'Add an offers object with price, priceCurrency and availability as shown on the page, or the review ' +
      'or aggregateRating the page displays; never mark up prices or ratings that visitors cannot see.',
  },
  META_JSONLD_BREADCRUMB_INVALID: {
    why:
      'Google shows the breadcrumb trail in search results instead of the URL only when every crumb has a ' +
      'name and a position in order, and every crumb but the last links to its page with a full URL.',
    fix:
      'Number the ListItem positions 1, 2, 3 in order, give each a name, and set item to the absolute URL ' +
      "of that level's page (https://example.com/garden/); only the last crumb, the current page, may leave " +
      'item out.',
  },
  META_JSONLD_FAQ_INVALID: {
    why:
      'An FAQPage question without its text or an accepted answer with text is invalid for Google, which ' +
      "then ignores the markup; FAQ markup also helps other search and AI tools read the page's questions " +
      'and answers.',
    fix:
      'Give each Question a name (the question as shown) and an acceptedAnswer of type Answer whose text is ' +
      'the full answer from the page; remove questions the page does not actually answer.',
  },
  META_JSONLD_DATE_INVALID: {
    why:
      'Search engines read datePublished and dateModified to date an article or page; a value that is not ' +
      'ISO 8601 (such as "March 3, 2024" or "03/04/2024") may be ignored or misread, so a wrong date may be ' +
      'shown.',
    fix:
      'Write dates in ISO 8601: 2024-03-03, or with a time and time zone, 2024-03-03T09:30:00+01:00. Most ' +
      'languages produce this format directly, for example toISOString() in JavaScript or date("c") in PHP.',
  },
  META_HREFLANG_TO_BROKEN: {
    why:
      'An hreflang alternate that answers an error, cannot be fetched or redirects is not a valid ' +
      'alternate: search engines ignore that entry, so the language version it names is not offered to its ' +
      'audience.',
    fix:
      'Point each hreflang entry at the final, working URL of the alternate version (one that answers 200 ' +
      'without redirecting), or remove the entry when that version no longer exists; update the whole set ' +
      'on every page.',
  },
  META_HREFLANG_TO_NON_INDEXABLE: {
    why:
      'Hreflang should only name pages that can be indexed; an alternate that is noindex or whose canonical ' +
      'is another URL sends conflicting signals, and search engines drop that entry from the set.',
    fix:
      'Point the entry at the indexable, canonical URL of the alternate version, or make that page ' +
      'indexable (remove the noindex, make its canonical point to itself); hreflang and canonical URLs ' +
      'should always agree.',
  },
  META_HREFLANG_DUPLICATE: {
    why:
      'When one language code points to two different URLs, search engines cannot tell which version to ' +
      'show to that audience and may ignore the conflicting annotations.',
    fix:
      'Keep one URL per hreflang value (and one x-default): remove the extra entry or give it the right ' +
      'code, for example en-GB and en-US instead of en twice. Check both the HTML links and any HTTP Link ' +
      'header or sitemap.',
  },
  META_HREFLANG_LANG_MISMATCH: {
    why:
      'The hreflang entry a page gives itself and its lang attribute should name the same language; when ' +
      'they differ, one of them is wrong, and search engines or screen readers may treat the page as the ' +
      'wrong language.',
    fix:
      'Correct whichever is wrong: the lang attribute of the html element should be the language the text is written ' +
      "in, and the page's own hreflang entry should carry that same language (regions may differ, such as " +
      'en and en-GB).',
  },
  META_VIEWPORT_NOT_RESPONSIVE: {
    why:
      'A viewport with a fixed pixel width, or with neither width=device-width nor an initial-scale, makes ' +
      'phones lay the page out at desktop width and shrink it, so text is tiny; Google indexes the mobile ' +
      'rendering of pages.',
    fix:
      'Set the viewport meta tag\'s content to "width=device-width, initial-scale=1" and make the layout adapt ' +
      'with CSS (relative widths, media queries) instead of fixing the width.',
  },
  META_VIEWPORT_MULTIPLE: {
    why:
      'With several viewport tags browsers apply one of them, usually the last, which is often not the one ' +
      'intended and can undo a responsive setting.',
    fix:
      'Keep a single viewport meta tag in the head, usually width=device-width, initial-scale=1; ' +
      'duplicates often come from a theme and a plugin both printing one.',
  },
  META_OG_INCOMPLETE: {
    why:
      'The Open Graph protocol requires og:title, og:type, og:image and og:url; when some are missing, ' +
      'social networks and chat apps guess them, and shares of the page may show no image or the wrong ' +
      'address.',
    fix:
      'Add the missing tags to the head: og:title (the page title), og:type (website or article), og:image ' +
      '(an absolute URL of an image about 1200 x 630 px) and og:url (the canonical URL of the page).',
  },
  META_OG_IMAGE_RELATIVE: {
    why:
      'Facebook, LinkedIn and other apps fetch og:image as written: a relative path such as /img/cover.jpg ' +
      'cannot be fetched, so shares of the page show no image.',
    fix:
      'Write og:image as an absolute URL with the scheme and host, such as ' +
      'https://example.com/img/cover.jpg; fix it in the template or SEO plugin that prints the tag.',
  },
  META_OG_URL_MISMATCH: {
    why:
      "Social networks treat og:url as the page's canonical address and gather likes and shares under it; " +
      "when it differs from the canonical URL, the page's shares are split between two addresses or " +
      'credited to another page.',
    fix:
      "Set og:url to exactly the URL in the page's rel=canonical link (same scheme, host, path and trailing " +
      'slash); generating both from the same value keeps them equal.',
  },
  META_TWITTER_CARD_INVALID: {
    why:
      'X (Twitter) only knows the card types summary, summary_large_image, app and player; any other value, ' +
      'including the retired photo, gallery and product cards, makes it show a plain link.',
    fix:
      'Set twitter:card to summary_large_image for pages with a large image, or summary otherwise; use app ' +
      'or player only for app installs and embedded media.',
  },
  CONTENT_H1_MISSING: {
    why:
      'The main heading tells visitors and search engines what the page is about; without an h1 the page lacks a ' +
      'clear heading and is harder to scan, especially with a screen reader.',
    fix:
      'Add one h1 near the top of the main content that states the page topic in words people search for, ' +
      'usually close to the title; if a styled div or the logo acts as the main heading, make it an h1 instead.',
  },
  CONTENT_H1_MULTIPLE: {
    why:
      'Several h1 headings are valid HTML and Google copes with them, but one clear main heading makes the ' +
      'structure easier to follow for visitors, screen readers and crawlers.',
    fix:
      'Keep one h1 for the main topic and turn the others into h2 or h3 according to their place in the outline; ' +
      'check headers, footers and widgets, which often use h1 for logos or section titles.',
  },
  CONTENT_HEADING_SKIP: {
    why:
      'Skipping a heading level breaks the outline that screen reader users navigate by and makes the structure ' +
      'of the content less clear; it has no direct effect on ranking.',
    fix:
      'Nest headings one level at a time (h1, then h2, then h3) and choose levels by structure, not appearance; ' +
      'if a heading should look smaller, style it with CSS instead of jumping to a lower level.',
  },
  CONTENT_THIN: {
    why:
      'An indexable page with under 200 words may not give enough information to satisfy a query, and search ' +
      'engines may treat it as low value; word count itself is not a ranking factor.',
    fix:
      'Add useful, original content that answers what visitors came for (details, specifications, explanations, ' +
      'questions and answers), merge thin pages into a stronger one, or mark pages with no search value noindex.',
  },
  CONTENT_DUPLICATE: {
    why:
      'When indexable pages have identical content, search engines pick one to show and filter out the others, ' +
      'which splits links and signals and may not select the URL you prefer.',
    fix:
      'Keep one URL per piece of content: 301-redirect the copies to it, or add a rel="canonical" link pointing ' +
      'to it; if the copies come from parameters, sorting or print versions, stop linking to those variants.',
  },
  CONTENT_NEAR_DUPLICATE: {
    why:
      'Pages that are 90% or more alike compete for the same queries; search engines may treat them as ' +
      'duplicates and show only one, which may not be the one you prefer.',
    fix:
      'Make each page substantially different with content specific to it, or merge near-identical pages (such ' +
      'as variants that differ only in colour or town name) into one URL with redirects or a canonical link.',
  },
  CONTENT_IMAGE_ALT_MISSING: {
    why:
      'Alt text is how screen readers describe images and one of the main clues Google uses to understand them ' +
      'for image search; an image without an alt attribute gives neither anything to work with.',
    fix:
      'Add an alt attribute to every img: a short description of what the image shows (for a linked image, where ' +
      'the link leads), or alt="" for purely decorative images so screen readers skip them.',
  },
  CONTENT_IMAGE_ALT_TOO_LONG: {
    why:
      'Long alt text is tiring for screen reader users, who cannot skim it, and alt attributes stuffed with ' +
      'keywords may cause the site to be seen as spam.',
    fix:
      'Shorten the alt text to 100 characters or fewer, describing only what matters about the image in its ' +
      'context; move longer explanations into a caption or the surrounding text.',
  },
  CONTENT_IMAGE_BROKEN: {
    why:
      'A broken image leaves a gap or an error icon on the page, which looks neglected to visitors, and the ' +
      'image cannot be indexed or appear in image search.',
    fix:
      'Restore the missing file or correct the src, srcset, source or poster URL (check case, path and domain); ' +
      'if the image was removed on purpose, remove every reference to it from the page.',
  },
  CONTENT_LINK_TEXT_GENERIC: {
    why:
      'Search engines use link text to understand the linked page, and screen reader users often browse a list ' +
      'of links; "click here" or "read more" tells neither what is behind the link.',
    fix:
      'Rewrite the visible link text to describe the target, for example "oak table care guide" instead of "read ' +
      'more"; in repeated cards, include the item name in the link text.',
  },
  CONTENT_DUPLICATE_ID: {
    why:
      'Duplicate ids are invalid HTML: in-page anchors, form labels, ARIA references and scripts may target the ' +
      'wrong element, which can break navigation and accessibility.',
    fix:
      'Give each element a unique id, for example by adding the item number in repeated components, or use a ' +
      'class when the value only serves styling; then update the links, labels and scripts that use the old ids.',
  },
  CONTENT_LOW_TEXT_RATIO: {
    why:
      'When visible text is under 10% of the HTML, the page is usually heavy with markup, inline scripts or ' +
      'styles, which slows download and parsing; the ratio is a hint, not a ranking factor.',
    fix:
      'Move inline scripts, styles and SVGs into cacheable external files, remove unused markup and large ' +
      'embedded data such as JSON state, and make sure the main content is in the HTML rather than loaded later.',
  },
  CONTENT_IMAGE_ALT_FILENAME: {
    why:
      'An alt text such as "IMG_1234.jpg" says nothing about the picture: image search cannot tell what it shows ' +
      'and screen readers read the file name aloud.',
    fix:
      "Replace the file name with a short description of what the image shows in this page's context, for " +
      'example "Oak dining table with six chairs"; use alt="" for purely decorative images.',
  },
  CONTENT_IMAGE_EMPTY_SRC: {
    why:
      'An img element without a source shows nothing (or a broken-image icon), and an empty src can make some ' +
      'browsers request the page itself again.',
    fix:
      'Give the image a src (and srcset where useful) pointing at the real file, or remove the element; a ' +
      'lazy-loading script should keep the URL in data-src or data-srcset until it fills in src.',
  },
  CONTENT_H1_DUPLICATE: {
    why:
      'The h1 tells readers and search engines what a page is about; the same h1 on several indexable pages makes ' +
      'them look interchangeable and can hint at duplicate or templated content.',
    fix:
      'Give each page an h1 that names what is specific to it (the product, the article topic, the city); if the ' +
      'pages really cover the same thing, merge them or point the copies to one canonical URL.',
  },
  CONTENT_PLACEHOLDER_TEXT: {
    why:
      '"Lorem ipsum" is filler copy left over from a template or design mock-up: it tells visitors and search ' +
      'engines nothing and makes the page look unfinished.',
    fix:
      'Replace the placeholder passage with the real text the page was meant to have, or remove the block; ' +
      'search the templates and CMS for other lorem ipsum leftovers.',
  },
  LINKS_INTERNAL_BROKEN: {
    why:
      'Broken internal links send visitors and crawlers to error pages, waste crawling, and stop link signals ' +
      'from reaching the page you meant to link to.',
    fix:
      'Update each broken link to the correct live URL, or remove it; if the target moved, also add a 301 ' +
      'redirect from the old URL. The evidence lists the failing targets and their status codes.',
  },
  LINKS_EXTERNAL_BROKEN: {
    why:
      'Links to external pages that fail frustrate visitors and suggest the content is out of date, and they no ' +
      'longer lead readers to the source you meant to cite.',
    fix:
      'Replace each failing link with the current address of the resource, an archived copy or another source, ' +
      'or remove it; some sites refuse crawlers or fail only from some networks, so confirm in a browser first.',
  },
  LINKS_TO_REDIRECT: {
    why:
      'Each redirect adds a round trip for visitors and an extra fetch for crawlers; linking straight to the ' +
      'final URL is faster and makes your preferred URLs clearer to search engines.',
    fix:
      'Change the internal link to point directly at the final URL shown in the evidence; common causes are a ' +
      'missing or extra trailing slash, http instead of https, and old URLs left after a migration.',
  },
  LINKS_REDIRECT_CHAIN: {
    why:
      'Each hop adds latency for visitors and an extra fetch for crawlers, and Googlebot stops after 10 hops; a ' +
      'single redirect to the final URL is faster and more robust.',
    fix:
      'Make the first redirect point straight at the final URL (for example http to https and non-www to www in ' +
      'one step) and link to the final URL; look for server, CDN and CMS rules that add hops one after another.',
  },
  LINKS_REDIRECT_LOOP: {
    why:
      'A redirect loop never reaches a page: browsers show an error, and search engines cannot crawl or index ' +
      'the URL.',
    fix:
      'Trace the chain in the evidence and fix the rule that sends the URL back to an earlier one, often ' +
      'conflicting http/https, www or trailing-slash rules between server, CDN and CMS; the final URL must ' +
      'answer 200.',
  },
  LINKS_ORPHAN: {
    why:
      'A page listed only in the sitemap receives no internal link signals and is hard for visitors to find; ' +
      'search engines may crawl it less often and treat it as less important.',
    fix:
      'Link to the page from relevant content, category pages or navigation with descriptive link text; if the ' +
      'page should no longer exist, remove it from the sitemap and redirect or retire it.',
  },
  LINKS_DEAD_END: {
    why:
      'A page with no outgoing links leaves visitors nowhere to go and gives crawlers no path from it to the ' +
      'rest of the site.',
    fix:
      'Add links to related content, the parent category and the main navigation; if links are built by scripts ' +
      'or buttons, make them a elements with a real URL in href so crawlers can follow them.',
  },
  LINKS_TOO_MANY: {
    why:
      'There is no fixed limit, but a page with over 100 links makes the important ones harder for visitors to ' +
      'find, and each link may receive a smaller share of the signals the page passes on.',
    fix:
      'Remove redundant links such as repeated navigation, tag clouds and long footer lists, split or group ' +
      'large listings, and keep the links that help visitors reach the most important pages.',
  },
  LINKS_INTERNAL_NOFOLLOW: {
    why:
      'rel=nofollow on your own links asks search engines not to follow them or pass signals, which can hinder ' +
      'the discovery of pages; it does not redistribute signals to other links.',
    fix:
      'Remove rel=nofollow from internal links you want crawled; to keep a page out of search results use ' +
      'noindex on that page instead, and to stop crawling of a section use robots.txt.',
  },
  LINKS_HTTPS_TO_HTTP: {
    why:
      'Links to http URLs send visitors to an insecure connection, which browsers may warn about, or through an ' +
      'extra redirect, and they point search engines to URLs you do not prefer.',
    fix:
      'Change the links to the https version of the target; on your own site, replace hard-coded http URLs in ' +
      'content and templates, and for other sites check that the https version works before switching.',
  },
  LINKS_UNCRAWLABLE: {
    why:
      'Search engines follow only a elements with a resolvable URL in href; links that rely on javascript:void(0), ' +
      'a file: URL or a click handler without href cannot be crawled, so their targets may never be discovered.',
    fix:
      'Give each link a real URL in its href, for example href="/products/oak-table", and attach any script ' +
      'behaviour on top of it; use a button element for actions that do not navigate.',
  },
  LINKS_DEPTH_HIGH: {
    why:
      'Pages more than 4 clicks from the start page are found later and may be crawled less often and treated as ' +
      'less important by search engines; visitors also reach them less often.',
    fix:
      'Shorten the path with links from category pages, hub pages, breadcrumbs or related-content blocks, and ' +
      'avoid long pagination chains; keep important pages within 3 or 4 clicks of the home page.',
  },
  LINKS_LOCALHOST: {
    why:
      'Links to localhost or 127.0.0.1 point to the computer of whoever opens them, so they fail for every ' +
      'visitor; they usually come from URLs copied out of a development environment.',
    fix:
      'Replace the localhost addresses with the live URLs or relative paths, then search the content database ' +
      'and templates for the development host so no other references are left.',
  },
  LINKS_TEMPORARY_REDIRECT: {
    why:
      'A 302 or 307 redirect says the move is temporary, so search engines may keep the old URL in their index ' +
      'instead of the target, and signals are consolidated more slowly.',
    fix:
      'If the move is permanent, answer 301 (or 308) instead; if it is really temporary (a sale page, a login ' +
      'step) keep it, and link to the final URL directly wherever you can.',
  },
  LINKS_NO_ANCHOR_TEXT: {
    why:
      'The anchor text tells search engines and screen-reader users what the linked page is about; a link with no ' +
      'text, no aria-label and no image alt gives them nothing.',
    fix:
      'Put descriptive text inside the link, or give an icon link an aria-label (for example aria-label="Search"), ' +
      'or give the image inside it a meaningful alt.',
  },
  LINKS_TO_NON_CANONICAL: {
    why:
      'Linking to a URL whose canonical is another URL sends crawlers to a duplicate first and mixes signals; ' +
      'search engines prefer internal links that agree with the canonical.',
    fix:
      'Change the internal links to point at the canonical URL itself (for example with or without the trailing ' +
      "slash, or without the tracking parameter), as the page's rel=canonical names it.",
  },
  LINKS_TO_NOINDEX: {
    why:
      'Followed internal links to noindex pages spend crawl budget and link equity on pages you have asked search ' +
      'engines not to show; a link from a prominent place may also mean the noindex is a mistake.',
    fix:
      'If the target should rank, remove its noindex; if it should not, link to it less prominently (or not at ' +
      'all) and make sure indexable pages get those links instead.',
  },
  LINKS_PAGINATION_BROKEN: {
    why:
      'Links between the pages of a series (rel=next and rel=prev) lead crawlers from one page to the next; ' +
      'a target that is missing, failing or redirecting breaks the chain, and the items listed on later ' +
      'pages may not be found.',
    fix:
      'Point rel=next and rel=prev at the real URLs of the neighbouring pages, which should answer 200; ' +
      'remove rel=next from the last page and rel=prev from the first, and update them when the series ' +
      'changes.',
  },
  LINKS_PAGINATION_NOINDEX: {
    why:
      'A page of a paginated series that is noindex keeps its own content out of the index, and over time ' +
      'search engines also crawl its links less, so products or articles listed only there may be missed.',
    fix:
      'Let the pages of the series be indexed: remove the noindex (meta robots or X-Robots-Tag) from them ' +
      'and give each page its own self-referencing canonical rather than pointing them all at page 1.',
  },
  TECH_STATUS_4XX: {
    why:
      'A page that answers 4xx is treated as missing or inaccessible: search engines do not index it (or drop ' +
      'it), and visitors see an error instead of content.',
    fix:
      'If the page should exist, restore it or fix the route so it answers 200; if it moved, 301-redirect it to ' +
      'the new URL; if it is gone for good, keep the 404 or 410 and remove links and sitemap entries pointing to ' +
      'it.',
  },
  TECH_STATUS_5XX: {
    why:
      'Server errors stop crawlers from reading the page; if they persist, search engines slow down crawling of ' +
      'the site and may drop the URL from the index.',
    fix:
      'Check the server and application logs for the failing URL, fix the cause (a crash, an unreachable ' +
      'database or upstream service, resource limits) and confirm it answers 200; use 503 only for planned, ' +
      'short downtime.',
  },
  TECH_TIMEOUT: {
    why:
      'A page that does not respond in time cannot be crawled or indexed, and visitors are likely to leave ' +
      'before it loads.',
    fix:
      'Find what makes the response slow: profile slow database queries and upstream calls, cache the rendered ' +
      'page, and check server capacity; aim for a time to first byte under 800 ms.',
  },
  PAGE_FETCH_FAILED: {
    why:
      'When a URL gives no usable response, search engines cannot crawl it and visitors see a browser error; if ' +
      'it persists, the URL may be dropped from the index.',
    fix:
      'Check the error in the evidence against DNS records, whether the server accepts connections, the TLS ' +
      'certificate, firewall or bot-protection rules and redirect rules; a host that resolves to a private ' +
      'address is refused.',
  },
  TECH_NOINDEX: {
    why:
      'A noindex directive keeps the page out of search results; that is right for pages such as logins, carts ' +
      'or internal search, but a mistake on a page meant to rank removes it.',
    fix:
      'If the page should appear in search, remove noindex from the robots meta tag and the X-Robots-Tag header ' +
      '(check CMS settings and plugins); if it is intended, leave it and keep the page out of the sitemap.',
  },
  TECH_NOINDEX_SITEWIDE: {
    why:
      'With noindex on 90% or more of the crawled pages, almost nothing on the site can appear in search ' +
      'results; this is often a staging setting left on after launch.',
    fix:
      'Remove the site-wide noindex: check the CMS visibility setting (such as "discourage search engines"), the ' +
      'robots meta tag in the base template and any X-Robots-Tag header set by the server, CDN or a plugin.',
  },
  TECH_ROBOTS_MISSING: {
    why:
      'Without robots.txt crawlers may fetch everything, which is allowed, but you lose the place to keep them ' +
      'out of low-value URLs and to point them to your sitemap.',
    fix:
      'Serve a plain-text file at /robots.txt that answers 200, for example "User-agent: *" with an empty ' +
      '"Disallow:" and a Sitemap line giving the absolute sitemap URL; add Disallow rules only for paths not to ' +
      'crawl.',
  },
  TECH_ROBOTS_UNREACHABLE: {
    why:
      'While robots.txt answers 5xx or times out, Google temporarily treats the whole site as disallowed and ' +
      'stops crawling it, so new and updated pages are not picked up until it is reachable again.',
    fix:
      'Make /robots.txt answer 200 quickly (or 404 if you have no rules): serve it as a static file, exempt it ' +
      'from authentication, rate limits and bot protection, and check the server or CDN logs for the errors.',
  },
  TECH_ROBOTS_BLOCKS_ALL: {
    why:
      'Disallow: / for every user agent stops compliant crawlers from fetching any page, so nothing can be read; ' +
      'pages may drop out of search or appear without a description.',
    fix:
      'Remove the "Disallow: /" line from the "User-agent: *" group (often left over from a staging site) and ' +
      'disallow only the paths that should not be crawled; to keep pages out of results, use noindex instead.',
  },
  TECH_ROBOTS_INVALID: {
    why:
      'Crawlers skip lines they do not understand, so a typo, a rule outside any user-agent group or a malformed ' +
      'path may silently fail to block or allow what you intended.',
    fix:
      'Start every group with a User-agent line, use only standard directives (User-agent, Allow, Disallow, ' +
      'Sitemap) spelled correctly, and begin every path with / or *, for example "Disallow: /cart/" not ' +
      '"Disallow: cart".',
  },
  TECH_BLOCKED_BY_ROBOTS: {
    why:
      'Search engines cannot crawl linked URLs that robots.txt disallows; that is fine for URLs you want left ' +
      'alone, but a blocked page may still be indexed without its content, from links alone.',
    fix:
      'If the linked pages should be crawled, narrow the matching Disallow rule in robots.txt; if the block is ' +
      'intended, check that nothing important sits behind it, and use noindex rather than robots.txt to keep ' +
      'pages out of results.',
  },
  TECH_SITEMAP_MISSING: {
    why:
      'A sitemap helps search engines discover and recrawl your URLs, especially new pages, large sites and ' +
      'pages with few links; without one they rely on links alone.',
    fix:
      'Generate an XML sitemap of your canonical, indexable URLs (most CMSs and SEO plugins can), serve it at ' +
      '/sitemap.xml or another path, and name it in a Sitemap line in robots.txt; you can also submit it in ' +
      'Search Console.',
  },
  TECH_SITEMAP_INVALID: {
    why:
      'Search engines may reject a sitemap that does not parse or exceeds 50,000 URLs or 50 MiB, and may ignore ' +
      'URLs of other hosts, so the pages it lists may not be discovered through it.',
    fix:
      'Fix the XML errors the evidence lists, split large sitemaps into files of at most 50,000 URLs and 50 MiB ' +
      'uncompressed listed in a sitemap index, and list only URLs of the host that serves the sitemap.',
  },
  TECH_SITEMAP_NON_INDEXABLE: {
    why:
      'A sitemap should list only URLs you want indexed; listing noindex, canonicalized, redirected or failing ' +
      'URLs sends mixed signals and spends crawling on pages that will not be indexed.',
    fix:
      'Remove the URL from the sitemap or list its indexable equivalent instead (the redirect target or the ' +
      'canonical URL); generate the sitemap from indexable pages so that this cannot recur.',
  },
  TECH_SITEMAP_BLOCKED_BY_ROBOTS: {
    why:
      'Listing URLs in the sitemap asks search engines to crawl them while robots.txt forbids it; the ' +
      'contradiction means those pages cannot be read and may not be indexed properly.',
    fix:
      'Decide for each URL: if it should be indexed, remove or narrow the Disallow rule that matches it; if not, ' +
      'remove it from the sitemap. Test the new rules against the listed URLs before deploying.',
  },
  TECH_CANONICAL_MULTIPLE: {
    why:
      'When a page declares more than one canonical URL, Google is likely to ignore all of them, so duplicates ' +
      'are not consolidated the way you intended.',
    fix:
      'Keep a single rel="canonical" link in the head (or a single Link header) pointing to the preferred URL; ' +
      'duplicates usually come from a theme and an SEO plugin both adding one, so turn one of them off.',
  },
  TECH_CANONICAL_RELATIVE: {
    why:
      'Relative canonical URLs are allowed but easy to get wrong: resolved on a staging host, another protocol ' +
      'or another path, they can point search engines at the wrong URL.',
    fix:
      'Use an absolute canonical URL with https and the host, matching the preferred URL exactly (same www, ' +
      'trailing slash and case), built from the configured site address rather than from the request.',
  },
  TECH_CANONICAL_MISSING: {
    why:
      'When one page answers under two URLs (/ and /index.html, /guide and /guide/), search engines see two ' +
      'pages with the same text, split links and signals between them and pick which one to show themselves.',
    fix:
      'Add a canonical link naming the one URL you want shown to the page, link to that URL everywhere, and ' +
      'ideally redirect the other variant to it with a 301.',
  },
  TECH_CANONICAL_MISMATCH: {
    why:
      'When the HTML canonical and the HTTP Link header canonical disagree, search engines get conflicting ' +
      'signals and may ignore both and choose a canonical themselves.',
    fix:
      'Declare the canonical in one place, or make the HTML link and the Link header name the same absolute URL; ' +
      'the header usually comes from server or CDN configuration and the HTML one from the CMS.',
  },
  TECH_CANONICAL_TO_BROKEN: {
    why:
      'A canonical pointing to a redirect, an error page or a noindex page is a contradictory signal, so search ' +
      'engines may ignore it and choose another URL as canonical.',
    fix:
      'Point the canonical at the final, indexable URL that answers 200: the redirect destination, a working ' +
      'page, or the page itself if it is the preferred version; remove noindex from the target if it should rank.',
  },
  TECH_CANONICAL_INVALID: {
    why:
      'Search engines follow only an http(s) canonical: a file: path or a value that does not parse is ignored, ' +
      'so variants such as / and /index.html are not consolidated.',
    fix:
      "Set the canonical to the page's absolute public URL, for example through the generator's base URL " +
      'setting (Sphinx: html_baseurl), or remove the tag.',
  },
  TECH_CANONICAL_OTHER_HOST: {
    why:
      'A canonical on another host asks search engines to index that copy instead: right for a mirror, but when ' +
      'every page does it, the site as audited has no page of its own in search.',
    fix:
      'If this host should rank, make each canonical name the page on this host or remove it; if it is a mirror ' +
      'on purpose, audit the host the canonicals name.',
  },
  TECH_URL_UPPERCASE: {
    why:
      'URL paths are case-sensitive, so mixed-case paths can create duplicate URLs for the same page, and links ' +
      'or addresses typed in lowercase may fail.',
    fix:
      'Use lowercase paths for new URLs; for existing ones, either 301-redirect them to lowercase versions and ' +
      'update internal links, or keep them and redirect their other case variants to them.',
  },
  TECH_URL_UNDERSCORE: {
    why:
      'Google recommends hyphens rather than underscores between words in URLs, as hyphens make the words easier ' +
      'for people and search engines to pick out; the effect on ranking is small.',
    fix:
      'Use hyphens in new URLs, for example oak-dining-table rather than oak_dining_table; renaming existing ' +
      'URLs needs 301 redirects and updated links, so do it only as part of a planned restructure.',
  },
  TECH_URL_TOO_LONG: {
    why:
      'URLs over 115 characters are harder to read, share and link to, and may be cut short where they are ' +
      'shown; long parameter strings can also signal duplicate URL variants that waste crawling.',
    fix:
      'Keep URLs to 115 characters or fewer with short, descriptive paths: drop filler words, dates and folders ' +
      'that add nothing, and keep tracking or session parameters out of links; redirect old URLs when you change ' +
      'them.',
  },
  TECH_HTTP_PAGE: {
    why:
      'Pages on plain http can be read and altered in transit, browsers mark them as not secure, and Google ' +
      'prefers https URLs as canonical and uses https as a light ranking signal.',
    fix:
      'Install a TLS certificate, serve the page over https and 301-redirect every http URL to its https ' +
      'equivalent; then update internal links, canonicals, hreflang and sitemaps to the https URLs.',
  },
  TECH_MIXED_CONTENT: {
    why:
      'Browsers block or warn about http resources on https pages, so scripts, styles or images may not load and ' +
      'the page may look broken or lose its secure status.',
    fix:
      'Load every resource over https: update hard-coded http URLs in templates and content, use https versions ' +
      'of third-party files, and consider the upgrade-insecure-requests directive of Content-Security-Policy as ' +
      'a safety net.',
  },
  TECH_RESOURCE_BROKEN: {
    why:
      'A failing script, stylesheet or font can break layout or features, and Google renders pages with their ' +
      'resources, so missing files may change what it sees and indexes.',
    fix:
      'Fix or remove each failing reference in the evidence: correct the path, redeploy missing build assets ' +
      '(hashed file names often go stale after a deploy) or drop the reference if it is no longer needed.',
  },
  TECH_RESOURCE_PRIVATE_ADDRESS: {
    why:
      'Visitors and search engines cannot reach loopback, private or link-local addresses, so those resources ' +
      'never load for them; the reference usually leaks from an internal environment.',
    fix:
      'Replace the internal address with the public URL of the resource, or serve the file from your own domain ' +
      'or CDN; search templates and configuration for the internal host name or IP so that none remain.',
  },
  TECH_HSTS_MISSING: {
    why:
      'Without HSTS, a first visit typed as http can be intercepted before the redirect to https; HSTS makes ' +
      'browsers go straight to https. It is a security measure, not a ranking factor.',
    fix:
      'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on https responses once every ' +
      'subdomain supports https; test with a short max-age first, and never send max-age=0 unless you mean to ' +
      'turn it off.',
  },
  TECH_HTML_TOO_LARGE: {
    why:
      'HTML over 1 MiB is slow to download and parse, which delays rendering on mobile connections; search ' +
      'engine crawlers process only a limited amount of each file, so extreme sizes can also cut content off.',
    fix:
      'Move inline scripts, styles, SVGs and data URI images into separate cacheable files, trim large embedded ' +
      'state or JSON, and paginate or load long lists on demand instead of rendering them all at once.',
  },
  TECH_AI_SEARCH_BLOCKED: {
    why:
      'These agents fetch pages to cite and link them in AI search and assistant answers; blocking them keeps ' +
      'your pages out of those answers. Crawlers for model training, such as GPTBot, are separate.',
    fix:
      'If you want to appear in AI search answers, allow OAI-SearchBot, ChatGPT-User, PerplexityBot and ' +
      'Claude-User in robots.txt (give them a group with Allow: / or remove the rules that block them); training ' +
      'crawlers such as GPTBot can stay blocked.',
  },
  TECH_LLMS_TXT_MISSING: {
    why:
      'llms.txt is a proposed convention that gives language models a curated summary of a site; few systems use ' +
      'it so far and search engines do not rank on it, so it is optional.',
    fix:
      'If you want to offer one, publish a Markdown file at /llms.txt that answers 200, with a short description ' +
      'of the site and links to its most useful pages, and keep it up to date.',
  },
  TECH_CSP_MISSING: {
    why:
      'A Content-Security-Policy limits which scripts may run, so an injected script (XSS) cannot deface pages, ' +
      'steal sessions or inject spam links that search engines then see on your site.',
    fix:
      'Send a Content-Security-Policy header, starting with a report-only policy to find what the pages load, ' +
      "for example \"default-src 'self'; object-src 'none'; base-uri 'self'\", then enforce it.",
  },
  TECH_CONTENT_TYPE_OPTIONS_MISSING: {
    why:
      "Without X-Content-Type-Options: nosniff, browsers may guess a response's type and run an uploaded file " +
      'as a script or stylesheet, which attackers use to inject content.',
    fix:
      'Send "X-Content-Type-Options: nosniff" on every response from the web server or CDN, and make sure each ' +
      'response carries the right Content-Type.',
  },
  TECH_CLICKJACKING_UNPROTECTED: {
    why:
      'A page any site may embed in a frame can be overlaid with a decoy (clickjacking), tricking visitors into ' +
      'clicks they did not mean; browsers block it only when told to.',
    fix:
      "Send \"Content-Security-Policy: frame-ancestors 'self'\" (or 'none'), and X-Frame-Options: SAMEORIGIN (or " +
      'DENY) for older browsers; allow the specific partner origins that must embed the page, never *.',
  },
  TECH_HSTS_SHORT: {
    why:
      'HSTS with a short max-age expires soon after a visit, so returning visitors may again reach the site over ' +
      "plain http first; browsers' preload list requires at least one year.",
    fix:
      'Raise the Strict-Transport-Security max-age to at least 31536000 (one year), for example ' +
      '"max-age=31536000; includeSubDomains" once every subdomain serves https.',
  },
  TECH_COOKIE_INSECURE: {
    why:
      'A cookie without the Secure attribute is also sent over plain http, where anyone on the network can read ' +
      'or change it, so a session can be hijacked even on an https site.',
    fix:
      'Add the Secure attribute to every cookie the site sets (and HttpOnly and SameSite=Lax to session cookies), ' +
      'in the application, framework session settings or the reverse proxy.',
  },
  TECH_META_REFRESH: {
    why:
      'A meta refresh redirects only after the page has loaded, is not a clear permanent signal to search ' +
      'engines, and a timed reload disorients visitors and breaks the back button.',
    fix:
      'Replace a meta refresh redirect with a server-side 301 (permanent) or 302 (temporary) redirect; remove ' +
      'timed reloads, or let visitors refresh content themselves.',
  },
  TECH_SOFT_404: {
    why:
      'A page that says "not found" but answers 200 tells search engines it is a real page: they may index ' +
      'error pages, and waste crawling on URLs that should be gone (a soft 404).',
    fix:
      'Make the server answer 404 (or 410 when gone for good) for missing pages while keeping the friendly error ' +
      'page, or redirect the URL with a 301 to the page that replaced it.',
  },
  TECH_URL_DOUBLE_SLASH: {
    why:
      'A double slash in the path usually comes from a template joining paths badly; the same page may then ' +
      'answer under several URLs, which creates duplicates.',
    fix:
      'Fix the template or rewrite rule that builds the URL so that each path segment has one slash, and ' +
      '301-redirect the double-slash URL to the single-slash one.',
  },
  TECH_URL_NON_ASCII: {
    why:
      'Spaces and non-ASCII characters must be percent-encoded in URLs; such URLs are long and unreadable when ' +
      'shared, and are easy to break when copied or linked (Google recommends readable ASCII words).',
    fix:
      'Use lower-case ASCII words separated by hyphens in paths (for example /cafe-menu instead of /café menu), ' +
      'and 301-redirect the old URLs to the new ones.',
  },
  TECH_URL_SESSION_ID: {
    why:
      'A session id in the URL gives every visit a different URL for the same page: crawlers see endless ' +
      "duplicates, and a shared link can hand over the sharer's session.",
    fix:
      'Keep sessions in cookies only (for example session.use_only_cookies=1 in PHP, tracking-mode COOKIE in ' +
      'Java EE), and 301-redirect URLs with a session parameter to the URL without it.',
  },
  TECH_CLIENT_RENDERED_SUSPECTED: {
    why:
      'The HTML as served is an empty app shell; its text, links and tags appear only when JavaScript runs. ' +
      'Search engines render later and not always, other crawlers not at all, and this audit judged the shell.',
    fix:
      'Switch the project to browser rendering mode to audit the page as rendered, and consider server-side ' +
      'rendering or prerendering so that the title, content and links are in the HTML itself.',
  },
  TECH_AMP_LINK_BROKEN: {
    why:
      'rel=amphtml tells search engines where the AMP version of a page is; when that URL fails or ' +
      'redirects, the AMP version cannot be used and the crawler wastes requests on it.',
    fix:
      'Point rel=amphtml at the working AMP URL of the same content, which should answer 200 directly, or ' +
      'remove the link if the site no longer publishes AMP pages.',
  },
  TECH_AMP_NO_CANONICAL: {
    why:
      'The AMP specification requires every AMP page to link its canonical page (or itself when it is the ' +
      'only version); without it the AMP page is invalid and search engines cannot pair it with the regular ' +
      'page.',
    fix:
      'Add a link rel="canonical" element to the head of the AMP page, pointing to the regular (non-AMP) ' +
      'version of the page, or to the AMP page itself when there is no other version.',
  },
  RENDER_TITLE_CHANGED: {
    why:
      'Crawlers that do not run JavaScript, link previews and the first indexing pass read the raw title, while ' +
      'rendering search engines read the new one: the page sends two different headlines.',
    fix:
      'Put the final title in the server-rendered HTML and stop the script (router, head manager or SEO plugin) ' +
      'from replacing it, or make both produce the same title.',
  },
  RENDER_TITLE_ONLY_RENDERED: {
    why:
      'Until JavaScript runs the page has no title: social previews, non-rendering crawlers and the first ' +
      'indexing pass see none, and search engines may show a made-up headline.',
    fix:
      'Render the title on the server (server-side rendering, prerendering or a static head template) so that ' +
      'the HTML as served already has the same title element the app sets.',
  },
  RENDER_DESCRIPTION_CHANGED: {
    why:
      'A description set or replaced by JavaScript is missed by link previews and crawlers that do not render, ' +
      'so different tools may show different snippets for the page.',
    fix:
      'Write the final meta description into the server-rendered head and have the client keep it, rather than ' +
      'adding or rewriting it in the browser.',
  },
  RENDER_CANONICAL_CHANGED: {
    why:
      'Two different canonical URLs, one in the HTML and one after rendering, are conflicting signals: search ' +
      'engines may follow either, or ignore both.',
    fix:
      'Serve the correct canonical link in the HTML and do not add, remove or change it with JavaScript; if the ' +
      'app must set it, make it match the server-rendered one exactly.',
  },
  RENDER_NOINDEX_CHANGED: {
    why:
      'Google skips rendering a page whose HTML says noindex, so removing it with JavaScript does not work; ' +
      'adding it with JavaScript drops a page the HTML allows, often by mistake.',
    fix:
      'Decide whether the page should be indexed and put that robots directive in the HTML (or X-Robots-Tag ' +
      'header) as served; remove the script that adds or removes noindex.',
  },
  RENDER_NOFOLLOW_CHANGED: {
    why:
      'A page-level nofollow that differs before and after rendering makes it unclear whether crawlers may ' +
      'follow the page links: some crawlers see one directive, others the other.',
    fix:
      'Set the intended robots directive (follow or nofollow) in the served HTML and keep scripts from changing ' +
      'the robots meta tag.',
  },
  RENDER_H1_CHANGED: {
    why:
      'The main heading is a strong clue to what the page is about; when JavaScript changes or adds it, crawlers ' +
      'that read the raw HTML see a different topic than those that render.',
    fix:
      'Render the final h1 on the server, and make client-side code keep the same heading instead of replacing ' +
      'it after loading.',
  },
  RENDER_LINKS_ONLY_RENDERED: {
    why:
      'Links inserted by JavaScript are found only after rendering, which search engines do later and with a ' +
      'limited budget, so the pages they lead to may be discovered late or not at all.',
    fix:
      'Output important internal links (navigation, related pages, pagination) as plain anchor elements with ' +
      'an href in the server-rendered HTML, not only from scripts.',
  },
  RENDER_CONTENT_NEEDS_JS: {
    why:
      'Most of the text appears only when JavaScript runs; crawlers that do not render see a nearly empty page, ' +
      'and rendering search engines index it later and less reliably.',
    fix:
      'Use server-side rendering, static generation or prerendering for the main content, so that the HTML as ' +
      'served carries the text and JavaScript only adds interactivity.',
  },
  RENDER_RESOURCE_BLOCKED_BY_ROBOTS: {
    why:
      'Search engines obey robots.txt when they render: scripts, styles or data requests it disallows are not ' +
      'loaded, so they may see a broken or empty page.',
    fix:
      'Allow crawlers to fetch the scripts, stylesheets and API endpoints the page needs to render, for example ' +
      'by removing Disallow rules for asset folders or adding Allow rules for them in robots.txt.',
  },
  RENDER_CONSOLE_ERRORS: {
    why:
      'Uncaught JavaScript errors can stop a page from rendering its content, links or tags, for crawlers as ' +
      'well as for visitors.',
    fix:
      'Open the page with the browser console, fix the errors listed in the evidence (missing variables, failed ' +
      'imports, code that assumes browser features), and test it in a headless browser.',
  },
  RENDER_FAILED_REQUESTS: {
    why:
      'Scripts, styles or data the page requests while rendering failed to load, so crawlers may render it ' +
      'without parts of its content or layout.',
    fix:
      'Fix or remove the failing requests listed in the evidence: restore missing files, correct wrong URLs, and ' +
      'make API endpoints answer crawlers as they answer visitors.',
  },
  PERF_LCP: {
    why:
      'LCP measures when the main content appears; it is a Core Web Vital, which Google uses as one of many ' +
      'ranking signals. Over 2,500 ms needs improvement and over 4,000 ms is poor.',
    fix:
      'Make the largest element load early: serve a compressed, correctly sized hero image, do not lazy-load it, ' +
      'give it fetchpriority="high" or a preload, and cut server response time and render-blocking CSS and ' +
      'scripts.',
  },
  PERF_CLS: {
    why:
      'CLS measures how much content jumps around while the page loads, which causes misclicks; it is a Core Web ' +
      'Vital, rated needs improvement over 0.1 and poor over 0.25.',
    fix:
      'Reserve space for images, videos, iframes and ads with width and height attributes or CSS aspect-ratio, ' +
      'do not insert content above existing content, and use size-matched fallback fonts to limit shifts when ' +
      'fonts load.',
  },
  PERF_INP: {
    why:
      'INP measures how quickly the page responds to clicks, taps and key presses; it is a Core Web Vital, rated ' +
      'needs improvement over 200 ms and poor over 500 ms.',
    fix:
      'Break up long JavaScript tasks, do less work in event handlers and defer what is not urgent, reduce ' +
      'third-party scripts, and keep the DOM small so the update after an interaction renders quickly.',
  },
  PERF_TBT: {
    why:
      'TBT is the lab measure of how much long tasks block the main thread during load; it predicts poor ' +
      'responsiveness (INP) and carries the largest weight in the Lighthouse performance score.',
    fix:
      'Reduce and split JavaScript: remove unused code, split bundles by route, defer or lazy-load third-party ' +
      'scripts and non-critical widgets, and move heavy computation off the main thread, for example to a web ' +
      'worker.',
  },
  PERF_FCP: {
    why:
      'FCP marks when the first text or image appears; a late first paint makes the page feel unresponsive and ' +
      'visitors more likely to leave. Over 1,800 ms needs improvement and over 3,000 ms is poor.',
    fix:
      'Reduce server response time, inline the critical CSS and load the rest later, add defer or async to ' +
      'scripts, preconnect to required origins, and use font-display: swap so text shows while web fonts load.',
  },
  PERF_TTFB: {
    why:
      'A slow first byte delays everything else the page loads and limits how fast crawlers can fetch pages. ' +
      'Over 800 ms needs improvement and over 1,800 ms is poor.',
    fix:
      'Cache rendered pages on the server or a CDN, speed up slow database queries and upstream API calls, avoid ' +
      'redirects before the page, and make sure hosting has enough capacity and is close to your visitors.',
  },
  PERF_DOM_SIZE: {
    why:
      'A large DOM uses more memory and makes style calculation, layout and scripts slower, especially on ' +
      'phones, which hurts loading and responsiveness. Over 800 elements is a notice, over 1,400 a warning.',
    fix:
      'Reduce elements: remove needless wrapper elements, paginate long lists and tables or render only the ' +
      'visible rows, load off-screen sections such as mega menus or reviews on demand, and avoid separate mobile ' +
      'and desktop markup.',
  },
  PERF_PAGE_WEIGHT: {
    why:
      'Heavy pages load slowly on mobile and metered connections and cost visitors data; the 2,667 KiB and 4,000 ' +
      'KiB bands follow the Lighthouse scoring of total byte weight.',
    fix:
      'Find the largest transfers in the evidence or the browser developer tools: compress and resize images ' +
      '(WebP or AVIF), remove unused JavaScript and CSS, subset or drop web fonts, and lazy-load media and ' +
      'embeds below the fold.',
  },
  PERF_IMAGE_TOO_LARGE: {
    why:
      'Large image files slow page loading, often including the Largest Contentful Paint, and use up mobile ' +
      'data; most images can be made much smaller without visible loss.',
    fix:
      'Resize each image to the largest size it is displayed at, serve smaller sizes with srcset, and convert to ' +
      'WebP or AVIF at a moderate quality (around 75 to 85), aiming for under 200 KiB per image.',
  },
  PERF_IMAGE_NO_DIMENSIONS: {
    why:
      'Without width and height, the browser cannot reserve space for an image before it loads, so the content ' +
      'below it jumps, which raises Cumulative Layout Shift.',
    fix:
      'Add width and height attributes with the natural pixel size of the image (for example width="1200" ' +
      'height="800") to every img, and let CSS keep it responsive with max-width: 100% and height: auto.',
  },
  PERF_NO_COMPRESSION: {
    why:
      'Uncompressed HTML, CSS, JavaScript and other text responses are often several times larger than they need ' +
      'to be, which slows downloads for visitors and crawlers.',
    fix:
      'Enable Brotli or gzip (or zstd) for text types such as HTML, CSS, JavaScript, JSON, SVG and XML in the ' +
      'web server, CDN or application, and check that responses carry a Content-Encoding header.',
  },
  PERF_RENDER_BLOCKING: {
    why:
      'Synchronous scripts and stylesheets in the head must be downloaded before the browser can paint anything, ' +
      'which delays the First and Largest Contentful Paint.',
    fix:
      'Add defer (or async for independent scripts) to scripts in the head or move them to the end of the body, ' +
      'inline the critical CSS, and combine stylesheets so the head has no more than three blocking ones.',
  },
  PERF_NO_CACHE_HEADERS: {
    why:
      'Without caching headers, browsers and CDNs may download static assets again on every visit, which makes ' +
      'repeat visits and moving between pages slower.',
    fix:
      'Send "Cache-Control: max-age=31536000, immutable" for versioned assets whose file names contain a content ' +
      'hash, and a shorter max-age plus an ETag or Last-Modified header for assets whose URL does not change.',
  },
  PERF_IMAGE_LEGACY_FORMAT: {
    why:
      'WebP and AVIF images are typically 25 to 50% smaller than JPEG or PNG at the same quality, so large images ' +
      'in older formats make pages load and paint more slowly.',
    fix:
      'Serve WebP or AVIF versions of large images, with a picture element and a JPEG/PNG fallback if you must ' +
      'support old browsers; most CDNs and image plugins can convert automatically.',
  },
  PERF_LCP_IMAGE_LAZY: {
    why:
      'The first large image at the top of a page is usually its Largest Contentful Paint; loading="lazy" makes ' +
      'the browser wait for layout before fetching it, which delays LCP.',
    fix:
      'Remove loading="lazy" from the hero image (or set loading="eager"), and consider fetchpriority="high" on ' +
      'it; keep lazy loading for images further down the page.',
  },
  PERF_IMAGES_NOT_LAZY: {
    why:
      'On a page with many images, loading every one at once competes with what is visible first and wastes data ' +
      'on images the visitor may never scroll to.',
    fix:
      'Add loading="lazy" to images below the first screen (keep the first few eager), with width and height set ' +
      'so the layout does not shift as they load.',
  },
};

/** The guidance for a check code, or undefined when the code is not in the catalog. */
export function guidanceFor(code: string): CheckGuidance | undefined {
  return Object.hasOwn(CHECK_GUIDANCE, code) ? CHECK_GUIDANCE[code as CheckCode] : undefined;
}
