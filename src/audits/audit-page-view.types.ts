import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { CoreWebVitalsType } from '../technical/graphql.js';
import { RedirectHopType } from '../tools/graphql.js';
import { AuditPageKindEnum, CategoryEnum, PageInfoType, SeverityEnum } from './audit.types.js';
import { EvidenceViewType } from './evidence.types.js';
import { INLINKS_DESCRIPTION } from './inlinks.js';
import { PAGE_FACT_LIMITS } from '../seo/page/index.js';

const LINK_CAP = PAGE_FACT_LIMITS.links.toLocaleString('en-US');
const URL_CHARS_CAP = PAGE_FACT_LIMITS.linkUrlChars.toLocaleString('en-US');

@ObjectType('HreflangLink')
export class HreflangLinkType {
  @Field(() => String) lang!: string;
  @Field(() => String) url!: string;
}

@ObjectType('PageResource', { description: 'A subresource the page loads.' })
export class PageResourceType {
  @Field(() => String) url!: string;
  @Field(() => String, { description: 'image, script, stylesheet, font, icon, media or other.' }) kind!: string;
}

@ObjectType('PageRenderSide', { description: 'What the rendering checks compare of one side of a page.' })
export class PageRenderSideType {
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true, description: 'The effective canonical URL, resolved.' }) canonical!:
    string | null;
  @Field(() => Boolean) noindex!: boolean;
  @Field(() => Boolean) nofollow!: boolean;
  @Field(() => [String], { description: 'Its h1 headings (the first 5).' }) h1!: string[];
  @Field(() => Int, { description: 'Words of visible text.' }) wordCount!: number;
  @Field(() => Int, { description: 'Distinct internal link targets.' }) internalLinks!: number;
}

@ObjectType('PageFailedRequest', { description: 'A request that failed while the page rendered.' })
export class PageFailedRequestType {
  @Field(() => String) url!: string;
  @Field(() => String) reason!: string;
}

@ObjectType('PageRendering', {
  description:
    'Browser rendering mode: the raw HTML as served beside the page as headless Chromium rendered it, and what ' +
    'rendering met (console errors, failed requests, resources robots.txt blocked), or why it failed.',
})
export class PageRenderingType {
  @Field(() => PageRenderSideType, { nullable: true, description: 'null when the page could not be analysed.' })
  raw!: PageRenderSideType | null;
  @Field(() => PageRenderSideType, { nullable: true, description: 'null when rendering failed (renderError).' })
  rendered!: PageRenderSideType | null;
  @Field(() => Int, { nullable: true, description: 'From navigation to the rendered snapshot, ms.' })
  renderMs!: number | null;
  @Field(() => Int) consoleErrorCount!: number;
  @Field(() => [String], { description: 'The first console errors and uncaught exceptions.' })
  consoleErrors!: string[];
  @Field(() => Int) failedRequestCount!: number;
  @Field(() => [PageFailedRequestType], { description: 'The first failed requests.' })
  failedRequests!: PageFailedRequestType[];
  @Field(() => [String], { description: "The site's scripts, styles and XHR that robots.txt disallows (the first)." })
  blockedByRobots!: string[];
  @Field(() => String, { nullable: true, description: 'Why rendering failed; the checks then judged the raw HTML.' })
  renderError!: string | null;
}

@ObjectType('PageIssue', { description: 'One issue occurrence on the page, with its check.' })
export class PageIssueType {
  @Field(() => ID) id!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'The audit issue (for suggestFix and the issues list); null while the audit runs.',
  })
  issueId!: string | null;
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => SeverityEnum) severity!: SeverityEnum;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => String, { nullable: true }) howToFix!: string | null;
  @Field(() => GraphQLJSON, { nullable: true }) evidence!: unknown;
  @Field(() => EvidenceViewType, { nullable: true }) details!: EvidenceViewType | null;
}

/** Where on the linking page a link sits (the stored `audit_link.position`). */
export enum LinkPositionEnum {
  HEADER = 'HEADER',
  NAVIGATION = 'NAVIGATION',
  CONTENT = 'CONTENT',
  ASIDE = 'ASIDE',
  FOOTER = 'FOOTER',
}
registerEnumType(LinkPositionEnum, {
  name: 'LinkPosition',
  description:
    "Where on the linking page a link sits: the page's header (banner), a navigation block, the content, an aside " +
    "(complementary) or the page's footer (contentinfo). Landmark elements and ARIA roles decide first (a header " +
    'or footer inside an article or section is content), common class and id names (site-header, main-nav, ' +
    'breadcrumbs, sidebar, footer-widgets) outside every landmark; anything else is content.',
});

@ObjectType('AuditLink', {
  description:
    'A page at the other end of followable links of a crawled page (one row per linking or linked page, with its ' +
    'first link and how many links; self links are not listed).',
})
export class AuditLinkType {
  @Field(() => ID) id!: string;
  @Field(() => String) sourceUrl!: string;
  @Field(() => String) targetUrl!: string;
  @Field(() => String, { description: 'Visible text, aria-label, or the alt of an image inside the link.' })
  anchor!: string;
  @Field(() => String, { nullable: true, description: 'The rel attribute as written.' }) rel!: string | null;
  @Field(() => Boolean, { description: 'The target is on the audited site.' }) internal!: boolean;
  @Field(() => Int, {
    nullable: true,
    description: "The other end's HTTP status (the target's for outlinks, the source's for inlinks), when crawled.",
  })
  otherStatus!: number | null;
  @Field(() => String, { nullable: true, description: "The other end's title, when crawled." }) otherTitle!:
    string | null;
  @Field(() => Boolean, { description: 'The other end was crawled in this audit.' }) otherCrawled!: boolean;
  @Field(() => Int, {
    description:
      'Links between the two pages (menu, body and footer often link twice or more); the row is the first of them.',
  })
  linkCount!: number;
  @Field(() => LinkPositionEnum, {
    nullable: true,
    description: 'Where the first of those links sits on the linking page (null: an audit crawled before positions).',
  })
  position!: LinkPositionEnum | null;
  @Field(() => [LinkPositionEnum], {
    description: 'Where the links between the two pages sit, each position once, in the order of their first link.',
  })
  positions!: LinkPositionEnum[];
}

@ObjectType('AuditLinkConnection')
export class AuditLinkConnection {
  @Field(() => [AuditLinkType]) nodes!: AuditLinkType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, {
    description: "All such pages (not this page of results): the page view's inlinkCount / outlinkCount.",
  })
  totalCount!: number;
}

@ObjectType('AuditPageView', {
  description:
    'One crawled URL of an audit with everything the crawl learned of it: status and redirect hops, indexability ' +
    'inputs, title / description / h1, language, hreflang, structured data, resources, lab vitals, its issues, ' +
    'and the link graph around it (inlinks, outlinks).',
})
export class AuditPageViewType {
  auditId!: string;
  /** The audit's project (the URL's ranking keywords are looked up in it); not exposed. */
  projectId!: string;
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { nullable: true, description: 'Where redirects ended.' }) finalUrl!: string | null;
  @Field(() => AuditPageKindEnum, { nullable: true, description: 'null for audits crawled before kinds existed.' })
  kind!: AuditPageKindEnum | null;
  @Field(() => Int, { nullable: true }) statusCode!: number | null;
  @Field(() => [RedirectHopType], { description: 'Redirect responses from this URL, in order.' })
  redirects!: RedirectHopType[];
  @Field(() => String, { nullable: true }) contentType!: string | null;
  @Field(() => Int) depth!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => Int, { nullable: true, description: 'Characters (code points).' }) titleLength!: number | null;
  @Field(() => String, { nullable: true }) metaDescription!: string | null;
  @Field(() => Int, { nullable: true, description: 'Characters (code points).' }) metaDescriptionLength!: number | null;
  @Field(() => [String]) h1!: string[];
  @Field(() => Int) wordCount!: number;
  @Field(() => String, { nullable: true, description: 'The html lang attribute.' }) lang!: string | null;
  @Field(() => [HreflangLinkType]) hreflang!: HreflangLinkType[];
  @Field(() => [String], { description: 'schema.org types of its JSON-LD entities.' }) structuredDataTypes!: string[];
  @Field(() => Boolean) indexable!: boolean;
  @Field(() => String, {
    nullable: true,
    description:
      'Why it is not indexable: noindex, canonicalized (another URL of the site), canonical-other-host (a URL of ' +
      'another host), redirect, error-status, not-html, no-response; null when it is.',
  })
  nonIndexableReason!: string | null;
  @Field(() => String, { nullable: true, description: 'The effective canonical URL.' }) canonical!: string | null;
  @Field(() => [String], { description: 'Contents of its robots (and googlebot) meta tags.' }) robotsMeta!: string[];
  @Field(() => [String], { description: 'X-Robots-Tag header values.' }) xRobotsTag!: string[];
  @Field(() => String, {
    nullable: true,
    description: "robots.txt's verdict for the crawler's user agent: allowed, disallowed or no-rules.",
  })
  robotsTxt!: string | null;
  @Field(() => Int, { nullable: true, description: 'Time to the first byte, ms.' }) responseTimeMs!: number | null;
  @Field(() => Int) bytes!: number;
  @Field(() => Boolean, { description: 'The HTML was over the size cap: it was analysed on its first bytes.' })
  bodyCapped!: boolean;
  @Field(() => [PageResourceType], { description: 'Its subresources (the first 100).' }) resources!: PageResourceType[];
  @Field(() => [CoreWebVitalsType], { description: 'Vitals measured for this URL in this audit.' })
  vitals!: CoreWebVitalsType[];
  @Field(() => Int, { description: `${INLINKS_DESCRIPTION} The total of \`inlinks\`.` })
  inlinkCount!: number;
  @Field(() => Int, { description: 'Distinct pages and URLs its followable links point to (itself not counted).' })
  outlinkCount!: number;
  @Field(() => Int, {
    nullable: true,
    description:
      "An HTML page's links (<a>, <area>), read or not; null for other URLs and audits crawled before it was kept.",
  })
  linkCount!: number | null;
  @Field(() => Int, {
    description:
      `Of linkCount, the links past the per-page cap (a guard against hostile pages: ${LINK_CAP} links, or ` +
      `${URL_CHARS_CAP} characters of their URLs): not followed, checked, or in inlinks/outlinks. "12,000 links; ` +
      '2,000 past the 10,000 read were not checked".',
  })
  linksNotRead!: number;
  @Field(() => String, { nullable: true, description: 'Why the fetch failed.' }) error!: string | null;
  @Field(() => PageRenderingType, {
    nullable: true,
    description: 'Browser rendering mode: the raw HTML versus the rendered page; null in html mode.',
  })
  rendering!: PageRenderingType | null;
  @Field(() => [PageIssueType], { description: 'Its issue occurrences, most severe first.' }) issues!: PageIssueType[];
}
