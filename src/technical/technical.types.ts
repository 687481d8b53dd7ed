import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { Severity } from '../seo/checks/index.js';

@ObjectType('SiteFactCheck', { description: 'One site fact judged pass or fail, with the reason.' })
export class SiteFactCheckType {
  @Field(() => String, { description: 'HTTPS, HSTS, HTTP_VERSION, COMPRESSION, ROBOTS_TXT or SITEMAP.' })
  fact!: string;
  @Field(() => String) label!: string;
  @Field(() => Boolean, { nullable: true, description: 'null when the audit could not tell.' }) passed!: boolean | null;
  @Field(() => String, { nullable: true, description: 'The fact as text, e.g. "HTTP/2", "gzip", "404".' }) value!:
    string | null;
  @Field(() => String) reason!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'CRITICAL, WARNING or NOTICE: when it failed, the severity of the issue the audit charges for it (the page ' +
      'shows it as the verdict, as the issues list does); null when it passed, is unknown, or no check charges it ' +
      '(HTTP/1.1 is informational).',
  })
  severity!: Severity | null;
}

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
  @Field(() => Date, { nullable: true, description: 'When the audit that found these facts measured them.' })
  measuredAt!: Date | null;
  @Field(() => [SiteFactCheckType], { description: 'Each fact judged pass or fail, with the reason.' })
  checks!: SiteFactCheckType[];
}

@ObjectType('VitalBand', {
  description: 'Good / needs-improvement / poor bounds of a Core Web Vital (the same thresholds as the PERF_* checks).',
})
export class VitalBandType {
  @Field(() => String, { description: 'LCP, CLS, INP, TBT, FCP or TTFB.' }) metric!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: '"ms", or "" for CLS (unitless).' }) unit!: string;
  @Field(() => Float, { description: 'Good up to and including this value.' }) good!: number;
  @Field(() => Float, { description: 'Poor above this value; needs improvement between good and poor.' })
  poor!: number;
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
  @Field(() => [VitalBandType], { description: 'The bands of LCP, CLS, INP, TBT, FCP and TTFB, in that order.' })
  vitalBands!: VitalBandType[];
}
