import { Arg, Query, Resolver } from 'type-graphql';
import type { ToolsService } from './tools.service.js';
import {
  HeadersReportType,
  MetaTagsInput,
  MetaTagsReportType,
  RobotsInput,
  RobotsReportType,
  SitemapInput,
  SitemapReportType,
} from './tools.types.js';

/** The free tools: no authentication (rate-limited per client IP by the transport). */
@Resolver()
export class ToolsResolver {
  constructor(private readonly tools: ToolsService) {}

  @Query(() => MetaTagsReportType, {
    description: 'Meta tags, Open Graph, Twitter, hreflang, JSON-LD and single-page checks of a URL or of pasted HTML.',
  })
  metaTags(@Arg('input', () => MetaTagsInput) input: MetaTagsInput): Promise<MetaTagsReportType> {
    return this.tools.metaTags(input);
  }

  @Query(() => RobotsReportType, { description: 'RFC 9309 robots.txt validation and URL tests.' })
  robotsTxt(@Arg('input', () => RobotsInput) input: RobotsInput): Promise<RobotsReportType> {
    return this.tools.robots(input);
  }

  @Query(() => HeadersReportType, {
    description: 'Redirect hops, HTTP version, headers and security/SEO header checks of a URL.',
  })
  httpHeaders(@Arg('url', () => String) url: string): Promise<HeadersReportType> {
    return this.tools.headers({ url });
  }

  @Query(() => SitemapReportType, {
    description: 'XML sitemap (or sitemap index, gzip allowed) validation per the sitemaps.org protocol.',
  })
  sitemap(@Arg('input', () => SitemapInput) input: SitemapInput): Promise<SitemapReportType> {
    return this.tools.sitemap(input);
  }
}
