import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { PageInfoType, SortDirectionEnum } from './audit.types.js';

@ObjectType('UrlTableField', {
  description:
    'A field of the URL table: a column to choose, sort on and filter on. type is text, number, bool or enum; ' +
    'operators are the filter operators it takes.',
})
export class UrlTableFieldType {
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'text, number, bool or enum.' }) type!: string;
  @Field(() => String) description!: string;
  @Field(() => Boolean) sortable!: boolean;
  @Field(() => Boolean) filterable!: boolean;
  @Field(() => [String], { description: "An enum's values; empty for other types." }) options!: string[];
  @Field(() => [String], {
    description:
      'Filter operators: eq, neq, contains, not_contains, regex, gt, gte, lt, lte, between, is_empty, ' +
      'is_not_empty (those that fit the type).',
  })
  operators!: string[];
}

@ObjectType('UrlTableRow')
export class UrlTableRowType {
  @Field(() => ID, { description: 'The row id (the page, or the occurrence in a check-scoped table).' }) id!: string;
  @Field(() => String) url!: string;
  @Field(() => [GraphQLJSON], {
    nullable: 'items',
    description: "The chosen columns' values in the order of UrlTableConnection.columns (null: no value).",
  })
  values!: unknown[];
}

@ObjectType('UrlTableConnection')
export class UrlTableConnection {
  @Field(() => [UrlTableFieldType], { description: 'The columns of the rows, in order.' })
  columns!: UrlTableFieldType[];
  @Field(() => [UrlTableRowType]) rows!: UrlTableRowType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'Rows the filter matches (all pages of results).' }) totalCount!: number;
}

@InputType('UrlTableConditionInput', {
  description:
    'One condition: a field key, an operator that fits its type, and a value (valueTo: the upper bound of between). ' +
    'field "issue" with eq (has) or neq (has not) and a check code as value filters on issues.',
})
export class UrlTableConditionInput {
  @Field(() => String) field!: string;
  @Field(() => String) operator!: string;
  @Field(() => String, { nullable: true }) value?: string | null;
  @Field(() => String, { nullable: true }) valueTo?: string | null;
}

@InputType('UrlTableConditionGroupInput')
export class UrlTableConditionGroupInput {
  @Field(() => String, { defaultValue: 'AND', description: 'AND or OR between the conditions.' }) combinator!: string;
  @Field(() => [UrlTableConditionInput]) conditions!: UrlTableConditionInput[];
}

@InputType('UrlTableFilterInput', { description: 'Groups of conditions; combinator joins the groups.' })
export class UrlTableFilterInput {
  @Field(() => String, { defaultValue: 'AND', description: 'AND or OR between the groups.' }) combinator!: string;
  @Field(() => [UrlTableConditionGroupInput]) groups!: UrlTableConditionGroupInput[];
}

@InputType('UrlTableSortInput')
export class UrlTableSortInput {
  @Field(() => String, { description: 'A sortable field key.' }) field!: string;
  @Field(() => SortDirectionEnum, { defaultValue: SortDirectionEnum.ASC }) direction!: SortDirectionEnum;
}
