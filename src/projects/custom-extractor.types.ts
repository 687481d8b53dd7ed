import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';

export enum ExtractorKindEnum {
  CSS = 'CSS',
  XPATH = 'XPATH',
  REGEX = 'REGEX',
  CONTAINS = 'CONTAINS',
  NOT_CONTAINS = 'NOT_CONTAINS',
}
registerEnumType(ExtractorKindEnum, {
  name: 'ExtractorKind',
  description:
    'CSS (a CSS selector), XPATH (an XPath 1.0 expression), REGEX (a regular expression over the HTML: its first ' +
    'group, else the whole match) give values; CONTAINS and NOT_CONTAINS search the HTML for a text or a regex and ' +
    'give yes or no.',
});

export enum ExtractorOutputEnum {
  TEXT = 'TEXT',
  ATTRIBUTE = 'ATTRIBUTE',
  INNER_HTML = 'INNER_HTML',
}
registerEnumType(ExtractorOutputEnum, {
  name: 'ExtractorOutput',
  description: "What is taken of a matched element: its text, one attribute's value, or its inner HTML.",
});

export enum ExtractorMatchEnum {
  FIRST = 'FIRST',
  ALL = 'ALL',
}
registerEnumType(ExtractorMatchEnum, {
  name: 'ExtractorMatch',
  description: 'The first match, or all of them (at most 50 values per page).',
});

@ObjectType('CustomExtractor', {
  description:
    "One of a project's custom extractors or searches (at most 20 per project), evaluated on each HTML page of its " +
    'next audits; its values are the URL table column `column`.',
})
export class CustomExtractorType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'Stable in the project: the column is extract.<key> or search.<key>.' })
  key!: string;
  @Field(() => String, { description: 'The URL table column of its values.' }) column!: string;
  @Field(() => String) name!: string;
  @Field(() => ExtractorKindEnum) kind!: ExtractorKindEnum;
  @Field(() => String) expression!: string;
  @Field(() => ExtractorOutputEnum) output!: ExtractorOutputEnum;
  @Field(() => String, { nullable: true, description: 'The attribute read when output is ATTRIBUTE.' })
  attribute!: string | null;
  @Field(() => ExtractorMatchEnum) match!: ExtractorMatchEnum;
  @Field(() => Boolean, { description: 'Searches: the expression is a regular expression.' }) regex!: boolean;
  @Field(() => Boolean, { description: 'REGEX and searches: case-insensitive.' }) ignoreCase!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@InputType('CustomExtractorInput', {
  description:
    'An extractor as saved; a CSS selector, XPath or regular expression that does not compile is refused ' +
    '(BAD_USER_INPUT, with the reason, details path "expression").',
})
export class CustomExtractorInput {
  @Field(() => String, { description: '1 to 80 characters, unique in the project (case-insensitive).' })
  name!: string;
  @Field(() => ExtractorKindEnum) kind!: ExtractorKindEnum;
  @Field(() => String, { description: 'The selector, XPath, regex or searched text (at most 1,000 characters).' })
  expression!: string;
  @Field(() => ExtractorOutputEnum, { nullable: true, description: 'Default TEXT. Searches and REGEX: ignored.' })
  output?: ExtractorOutputEnum | null;
  @Field(() => String, { nullable: true, description: 'Required when output is ATTRIBUTE.' })
  attribute?: string | null;
  @Field(() => ExtractorMatchEnum, { nullable: true, description: 'Default FIRST. Searches: ignored.' })
  match?: ExtractorMatchEnum | null;
  @Field(() => Boolean, { nullable: true, description: 'Searches: the expression is a regex. Default false.' })
  regex?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'REGEX and searches: case-insensitive. Default false.' })
  ignoreCase?: boolean | null;
}
