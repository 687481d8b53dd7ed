import { Field, InputType, ObjectType } from 'type-graphql';
import { CategoryEnum, SeverityEnum } from './check-catalog.types.js';

@ObjectType('CheckSetting', { description: "One catalog check as a project's audits apply it." })
export class CheckSettingType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => CategoryEnum) category!: CategoryEnum;
  @Field(() => String, { description: 'page or site.' }) scope!: string;
  @Field(() => SeverityEnum, { description: "The severity the project's audits use." }) severity!: SeverityEnum;
  @Field(() => SeverityEnum, { description: "The catalog's severity." }) defaultSeverity!: SeverityEnum;
  @Field(() => Boolean, { description: 'Disabled: not evaluated, not reported, no part of the score.' })
  enabled!: boolean;
  @Field(() => Boolean, { description: "The project's setting differs from the catalog's." }) overridden!: boolean;
  @Field(() => Boolean, { description: 'Banded check: only enabled or disabled, its severity follows the value.' })
  banded!: boolean;
  @Field(() => Date, { nullable: true }) updatedAt!: Date | null;
}

@InputType('CheckSettingInput', { description: "One check's setting; equal to the catalog's, it resets it." })
export class CheckSettingInput {
  @Field(() => String, { description: 'A code of the catalog (query checks).' }) code!: string;
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) enabled?: boolean | null;
  @Field(() => SeverityEnum, {
    nullable: true,
    description: "Null keeps the catalog's; refused (BAD_USER_INPUT) for a banded check.",
  })
  severity?: SeverityEnum | null;
}
