/**
 * Why each audit check matters and how to fix it, in plain English for SEO practitioners (one entry per code of
 * the catalog in check-catalog.ts; the Record type makes a missing code a compile error). The texts follow each
 * check's rule and thresholds as the catalog describes them (CHECKS.md).
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
      'Add the properties the evidence lists: Product needs name and one of offers, review or aggregateRating; ' +
      'Article needs headline; FAQPage questions need name and acceptedAnswer text; Review needs author, ' +
      'itemReviewed and reviewRating; breadcrumbs need position, name and item.',
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
      'Search engines follow only a elements with a resolvable URL in href; links that rely on javascript:, an ' +
      'empty href or "#" cannot be crawled, so their targets may never be discovered.',
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
      'phones, which hurts loading and responsiveness. Over 1,500 elements is a warning, over 3,000 critical.',
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
};

/** The guidance for a check code, or undefined when the code is not in the catalog. */
export function guidanceFor(code: string): CheckGuidance | undefined {
  return Object.hasOwn(CHECK_GUIDANCE, code) ? CHECK_GUIDANCE[code as CheckCode] : undefined;
}
