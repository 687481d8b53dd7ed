import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType('SiteTechnicalFacts', { description: 'Facts about the site from its latest audit.' })
export class SiteTechnicalFactsType {
  @Field(() => Boolean, { nullable: true }) https!: boolean | null;
  @Field(() => Boolean, { nullable: true }) hsts!: boolean | null;
  @Field(() => String, { nullable: true }) httpVersion!: string | null;
  @Field(() => String, { nullable: true, description: 'Content-Encoding of the start page (gzip, br, zstd) or null.' })
  compression!: string | null;
  @Field(() => String, { nullable: true, description: 'HTTP status of /robots.txt, or "unreachable".' }) robotsTxt!:
    string | null;
  @Field(() => String, { nullable: true, description: 'valid, invalid or missing.' }) sitemap!: string | null;
}

@ObjectType('CoreWebVitals', {
  description: 'One measurement of a page; source LAB (Chromium) or HTTP (no browser: TTFB only).',
})
export class CoreWebVitalsType {
  @Field(() => String) url!: string;
  @Field(() => Date) measuredAt!: Date;
  @Field(() => String) device!: string;
  @Field(() => String) source!: string;
  @Field(() => Float, { nullable: true }) lcpMs!: number | null;
  @Field(() => Float, { nullable: true }) cls!: number | null;
  @Field(() => Float, { nullable: true }) inpMs!: number | null;
  @Field(() => Float, { nullable: true }) tbtMs!: number | null;
  @Field(() => Float, { nullable: true }) fcpMs!: number | null;
  @Field(() => Float, { nullable: true }) ttfbMs!: number | null;
  @Field(() => Int, { nullable: true }) performanceScore!: number | null;
}

@ObjectType('Technical')
export class TechnicalType {
  @Field(() => SiteTechnicalFactsType, { nullable: true, description: 'null before the first completed audit.' })
  site!: SiteTechnicalFactsType | null;
  @Field(() => [CoreWebVitalsType], { description: 'Oldest first.' }) coreWebVitals!: CoreWebVitalsType[];
}
