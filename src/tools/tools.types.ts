import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';

@ObjectType('ToolIssue')
export class ToolIssueType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => String) severity!: string;
  @Field(() => String) category!: string;
}

@ObjectType('HreflangEntry')
export class HreflangEntryType {
  @Field(() => String) lang!: string;
  @Field(() => String) href!: string;
}

@ObjectType('MetaTagsReport')
export class MetaTagsReportType {
  @Field(() => String) url!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) canonical!: string | null;
  @Field(() => String, { nullable: true }) robots!: string | null;
  @Field(() => String, { nullable: true }) viewport!: string | null;
  @Field(() => String, { nullable: true }) lang!: string | null;
  @Field(() => String, { nullable: true }) charset!: string | null;
  @Field(() => GraphQLJSON, { description: 'og:* properties by name.' }) openGraph!: Record<string, string>;
  @Field(() => GraphQLJSON, { description: 'twitter:* names by name.' }) twitter!: Record<string, string>;
  @Field(() => [HreflangEntryType]) hreflang!: HreflangEntryType[];
  @Field(() => GraphQLJSON, { description: 'Parsed JSON-LD blocks.' }) jsonLd!: unknown[];
  @Field(() => [ToolIssueType]) issues!: ToolIssueType[];
}

@InputType('MetaTagsInput', {
  description: 'A URL to fetch, or HTML to analyze (with the URL it is served from, optionally).',
})
export class MetaTagsInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) html?: string | null;
}

@ObjectType('LineMessage')
export class LineMessageType {
  @Field(() => Int, { nullable: true }) line!: number | null;
  @Field(() => String) message!: string;
}

@ObjectType('RobotsRule')
export class RobotsRuleType {
  @Field(() => String, { description: 'allow or disallow' }) type!: string;
  @Field(() => String) path!: string;
  @Field(() => Int) line!: number;
}

@ObjectType('RobotsGroup')
export class RobotsGroupType {
  @Field(() => [String]) userAgents!: string[];
  @Field(() => [RobotsRuleType]) rules!: RobotsRuleType[];
}

@ObjectType('RobotsUrlTest')
export class RobotsUrlTestType {
  @Field(() => String) url!: string;
  @Field(() => String) userAgent!: string;
  @Field(() => Boolean) allowed!: boolean;
  @Field(() => RobotsRuleType, { nullable: true }) matchedRule!: RobotsRuleType | null;
}

@ObjectType('RobotsReport')
export class RobotsReportType {
  @Field(() => Boolean) valid!: boolean;
  @Field(() => String, { description: '"content" or the URL the file was fetched from.' }) source!: string;
  @Field(() => Int) sizeBytes!: number;
  @Field(() => [RobotsGroupType]) groups!: RobotsGroupType[];
  @Field(() => [String]) sitemaps!: string[];
  @Field(() => [LineMessageType]) errors!: LineMessageType[];
  @Field(() => [LineMessageType]) warnings!: LineMessageType[];
  @Field(() => [RobotsUrlTestType]) tests!: RobotsUrlTestType[];
}

@InputType('RobotsInput')
export class RobotsInput {
  @Field(() => String, { nullable: true, description: 'A site URL or the robots.txt URL.' }) url?: string | null;
  @Field(() => String, { nullable: true }) content?: string | null;
  @Field(() => [String], { nullable: true, description: 'At most 100 URLs or paths to test.' }) testUrls?:
    string[] | null;
  @Field(() => String, { nullable: true }) userAgent?: string | null;
}

@ObjectType('RedirectHop')
export class RedirectHopType {
  @Field(() => String) url!: string;
  @Field(() => Int) status!: number;
}

@ObjectType('HeaderCheck')
export class HeaderCheckType {
  @Field(() => String) name!: string;
  @Field(() => Boolean) passed!: boolean;
  @Field(() => String, { nullable: true }) value!: string | null;
  @Field(() => String) message!: string;
}

@ObjectType('HeadersReport')
export class HeadersReportType {
  @Field(() => String) url!: string;
  @Field(() => String) finalUrl!: string;
  @Field(() => Int) status!: number;
  @Field(() => [RedirectHopType]) redirects!: RedirectHopType[];
  @Field(() => String) httpVersion!: string;
  @Field(() => GraphQLJSON, { description: 'Lower-cased names; repeated headers as arrays.' }) headers!: Record<
    string,
    string | string[]
  >;
  @Field(() => [HeaderCheckType]) checks!: HeaderCheckType[];
  @Field(() => [ToolIssueType]) issues!: ToolIssueType[];
}

@ObjectType('SitemapEntry')
export class SitemapEntryType {
  @Field(() => String) loc!: string;
  @Field(() => String, { nullable: true }) lastmod!: string | null;
  @Field(() => String, { nullable: true }) changefreq!: string | null;
  @Field(() => Number, { nullable: true }) priority!: number | null;
}

@ObjectType('ChildSitemap', { description: 'A sitemap listed by an index, fetched and validated within a bound.' })
export class ChildSitemapType {
  @Field(() => String) loc!: string;
  @Field(() => String, { nullable: true }) lastmod!: string | null;
  @Field(() => Boolean, { nullable: true, description: 'null when not fetched (over the bound) or unreachable.' })
  valid!: boolean | null;
  @Field(() => Int, { nullable: true }) urlCount!: number | null;
  @Field(() => Int, { nullable: true }) errorCount!: number | null;
  @Field(() => String, { nullable: true }) fetchError!: string | null;
}

@ObjectType('SitemapReport')
export class SitemapReportType {
  @Field(() => Boolean) valid!: boolean;
  @Field(() => String, { nullable: true, description: 'urlset or sitemapindex' }) type!: string | null;
  @Field(() => Int) urlCount!: number;
  @Field(() => [ChildSitemapType], { nullable: true }) sitemaps!: ChildSitemapType[] | null;
  @Field(() => [LineMessageType]) errors!: LineMessageType[];
  @Field(() => [LineMessageType]) warnings!: LineMessageType[];
  @Field(() => [SitemapEntryType]) sample!: SitemapEntryType[];
}

@InputType('SitemapInput')
export class SitemapInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) content?: string | null;
}
