import { Field, ObjectType, registerEnumType } from 'type-graphql';
import type { CheckRequirement } from './check-docs.js';

/** The catalog's severities and categories (src/seo/checks), as every GraphQL type of a check or an issue has them. */
export enum SeverityEnum {
  CRITICAL = 'CRITICAL',
  WARNING = 'WARNING',
  NOTICE = 'NOTICE',
}
registerEnumType(SeverityEnum, { name: 'Severity' });

export enum CategoryEnum {
  META = 'META',
  CONTENT = 'CONTENT',
  LINKS = 'LINKS',
  TECHNICAL = 'TECHNICAL',
  PERFORMANCE = 'PERFORMANCE',
}
registerEnumType(CategoryEnum, { name: 'IssueCategory' });

export enum CheckRequirementEnum {
  NONE = 'NONE',
  LAB_BROWSER = 'LAB_BROWSER',
  RENDERING_MODE = 'RENDERING_MODE',
}
registerEnumType(CheckRequirementEnum, {
  name: 'CheckRequirement',
  description: 'What a check needs beyond an HTML crawl.',
  valuesConfig: {
    NONE: { description: 'Runs on every audit (the raw HTML, the HTTP responses, the site files).' },
    LAB_BROWSER: {
      description: 'A lab measurement in Chromium (start URL and most linked pages); not applicable without one.',
    },
    RENDERING_MODE: {
      description: "The project's browser rendering mode: compares the raw HTML with the rendered page.",
    },
  },
});

// Compile-time check that the GraphQL enum and the catalog's requirement stay the same set.
const requirements: Record<CheckRequirement, CheckRequirementEnum> = CheckRequirementEnum;
void requirements;

@ObjectType('CheckDefinition', { description: 'One check of the audit catalog (public data).' })
export class CheckDefinitionType {
  @Field(() => String, { description: 'Stable code, e.g. META_TITLE_MISSING.' }) code!: string;
  @Field(() => String) title!: string;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => SeverityEnum, { description: "The catalog's severity (a project may override it)." })
  severity!: SeverityEnum;
  @Field(() => String, {
    description:
      'page: charged by the share of crawled pages it fails on; site: charged once per audit (a site-level check, or ' +
      'a fact of the server seen on every page such as TECH_HTTP_PAGE; docs/scores.md).',
  })
  scope!: string;
  @Field(() => String, { description: 'The rule, in one sentence.' }) description!: string;
  @Field(() => String, { description: 'Why it matters for search.' }) why!: string;
  @Field(() => String, { description: 'How to fix it.' }) fix!: string;
  @Field(() => Boolean, {
    description: 'Severity follows the measured value (NOTICE band, then WARNING): it cannot be overridden.',
  })
  banded!: boolean;
  @Field(() => CheckRequirementEnum) requires!: CheckRequirementEnum;
  @Field(() => Boolean, { description: 'Whether the check needs a browser (lab measurement or rendering mode).' })
  needsBrowser!: boolean;
  @Field(() => Boolean, { description: 'A failure caps the overall score (site-wide blocker).' })
  blocker!: boolean;
  @Field(() => String, { description: 'How a failure counts in the audit scores (docs/scores.md).' })
  scoring!: string;
}
