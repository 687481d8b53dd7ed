import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
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
  @Field(() => String, { description: 'A sortable field key, or (with checkCode) one of its evidence.* columns.' })
  field!: string;
  @Field(() => SortDirectionEnum, { defaultValue: SortDirectionEnum.ASC }) direction!: SortDirectionEnum;
}

export enum UrlTableExportFormatEnum {
  CSV = 'CSV',
  JSON = 'JSON',
  XLSX = 'XLSX',
}
registerEnumType(UrlTableExportFormatEnum, { name: 'UrlTableExportFormat' });

@ObjectType('UrlTableExportPiece', {
  description:
    'One piece of an "export as shown" file; the pieces joined in order are the file. Ask for the next with ' +
    'after: nextCursor (null on the last piece).',
})
export class UrlTableExportPieceType {
  @Field(() => String) filename!: string;
  @Field(() => String) contentType!: string;
  @Field(() => String, { description: 'UTF8 (CSV, JSON: content is text) or BASE64 (XLSX: content is bytes).' })
  encoding!: string;
  @Field(() => String) content!: string;
  @Field(() => Int, { description: 'Rows in this piece.' }) rows!: number;
  @Field(() => String, { nullable: true }) nextCursor!: string | null;
}
