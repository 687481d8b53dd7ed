import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum EvidenceKindEnum {
  LINKS = 'LINKS',
  IMAGES = 'IMAGES',
  DUPLICATES = 'DUPLICATES',
  REDIRECTS = 'REDIRECTS',
  HEADERS = 'HEADERS',
  RESOURCES = 'RESOURCES',
  VALUES = 'VALUES',
}
registerEnumType(EvidenceKindEnum, {
  name: 'EvidenceKind',
  description: "The shape of an occurrence's evidence; every check code has one (see the catalog).",
});

@ObjectType('EvidenceCell', { description: 'One value of evidence, as text; url is set when the value is a URL.' })
export class EvidenceCellType {
  @Field(() => String) text!: string;
  @Field(() => String, { nullable: true, description: 'Absolute URL, when the value is one.' }) url!: string | null;
}

@ObjectType('EvidenceFact')
export class EvidenceFactType {
  @Field(() => String) label!: string;
  @Field(() => EvidenceCellType) value!: EvidenceCellType;
}

@ObjectType('EvidenceTable')
export class EvidenceTableType {
  @Field(() => String) caption!: string;
  @Field(() => [String]) columns!: string[];
  @Field(() => [[EvidenceCellType]]) rows!: EvidenceCellType[][];
  @Field(() => Int, { description: 'Rows the evidence holds beyond those listed.' }) omitted!: number;
}

@ObjectType('EvidenceView', {
  description:
    "An occurrence's evidence as a person reads it: labelled facts and small tables (links, images, duplicate " +
    'groups, redirect hops, headers). The raw evidence stays available as `evidence` (JSON).',
})
export class EvidenceViewType {
  @Field(() => EvidenceKindEnum) kind!: EvidenceKindEnum;
  @Field(() => [EvidenceFactType]) facts!: EvidenceFactType[];
  @Field(() => [EvidenceTableType]) tables!: EvidenceTableType[];
}
