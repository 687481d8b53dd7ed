import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';

export enum FixSourceEnum {
  LLM = 'LLM',
  RULES = 'RULES',
}
registerEnumType(FixSourceEnum, {
  name: 'FixSource',
  description: 'LLM: a language model wrote it; RULES: the deterministic rules engine.',
});

@ObjectType('FixSuggestion')
export class FixSuggestionType {
  @Field(() => ID) id!: string;
  @Field(() => ID) issueId!: string;
  @Field(() => String) url!: string;
  @Field(() => String) summary!: string;
  @Field(() => [String]) steps!: string[];
  @Field(() => String, { nullable: true, description: 'A snippet to paste (HTML, server configuration, …).' }) code!:
    string | null;
  @Field(() => FixSourceEnum) source!: FixSourceEnum;
  @Field(() => String, { nullable: true }) model!: string | null;
  @Field(() => Date) createdAt!: Date;
}

@InputType('SuggestFixInput')
export class SuggestFixInput {
  @Field(() => ID) issueId!: string;
  @Field(() => String, {
    nullable: true,
    description: 'One of the pages the issue was found on; defaults to the first.',
  })
  url?: string | null;
}
