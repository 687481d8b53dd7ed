import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { SeverityEnum } from './audit.types.js';

export enum CheckSettingChangeKindEnum {
  DISABLED = 'DISABLED',
  ENABLED = 'ENABLED',
  SEVERITY = 'SEVERITY',
}
registerEnumType(CheckSettingChangeKindEnum, {
  name: 'CheckSettingChangeKind',
  description:
    'DISABLED: run by the earlier audit, switched off for the later one; ENABLED: the reverse; SEVERITY: run by ' +
    'both at another severity.',
});

@ObjectType('AuditCheckSetting', {
  description: 'A project check setting an audit was scored with (a check switched off, or another severity).',
})
export class AuditCheckSettingType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => SeverityEnum, { nullable: true, description: "The overriding severity; null: the catalog's." })
  severity!: SeverityEnum | null;
}

@ObjectType('CheckSettingChange', {
  description:
    'How one check was set differently between two audits. Scores of audits scored with different settings do not ' +
    'compare: their difference is not progress or decline.',
})
export class CheckSettingChangeType {
  @Field(() => String) code!: string;
  @Field(() => String) title!: string;
  @Field(() => CheckSettingChangeKindEnum) change!: CheckSettingChangeKindEnum;
  @Field(() => SeverityEnum, { nullable: true, description: 'The severity it was charged at before; null: off.' })
  severityBefore!: SeverityEnum | null;
  @Field(() => SeverityEnum, { nullable: true, description: 'The severity it is charged at after; null: off.' })
  severityAfter!: SeverityEnum | null;
  @Field(() => String, { description: 'In words, e.g. "Page served over HTTP (TECH_HTTP_PAGE) disabled".' })
  description!: string;
}
