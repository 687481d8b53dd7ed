import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('WontFix', {
  description:
    "A project's \"won't fix\" marking of one check's finding on one URL: left out of the score while the URL is " +
    'unchanged (docs/scores.md, "Won\'t fix"); every member of the organization sees who marked it, when and why.',
})
export class WontFixType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The check code.' }) code!: string;
  @Field(() => String, { description: "The check's title in the catalog." }) title!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { description: 'Why it will not be fixed, as the member wrote it.' }) reason!: string;
  @Field(() => String, { description: 'The name of the member who marked it (kept when the member leaves).' })
  markedByName!: string;
  @Field(() => Date) markedAt!: Date;
}

@InputType('MarkWontFixInput', { description: 'One occurrence of a completed audit to mark as "won\'t fix".' })
export class MarkWontFixInput {
  @Field(() => ID, { description: 'The completed audit the occurrence was found in.' }) auditId!: string;
  @Field(() => String, { description: 'The check code of the issue.' }) code!: string;
  @Field(() => String, { description: 'The URL of the occurrence.' }) url!: string;
  @Field(() => String, { description: 'Why it will not be fixed: required, 1 to 500 characters once trimmed.' })
  reason!: string;
}
