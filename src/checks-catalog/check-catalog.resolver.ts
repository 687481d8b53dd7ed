import { Arg, Query, Resolver } from 'type-graphql';
import { DomainError } from '../platform/errors.js';
import { checkDoc, checkDocs, type CheckDoc } from './check-docs.js';
import { CategoryEnum, CheckDefinitionType, SeverityEnum, type CheckRequirementEnum } from './check-catalog.types.js';

function toType(doc: CheckDoc): CheckDefinitionType {
  return {
    ...doc,
    category: doc.category as CategoryEnum,
    severity: doc.severity as SeverityEnum,
    requires: doc.requires as CheckRequirementEnum,
    needsBrowser: doc.requires !== 'NONE',
  };
}

/** The check catalog: public data, no authentication (rate-limited per client IP by the transport, as the tools). */
@Resolver()
export class CheckCatalogResolver {
  @Query(() => [CheckDefinitionType], {
    description: 'Every check of the audit catalog, in catalog order; optionally of one category and/or severity.',
  })
  checks(
    @Arg('category', () => CategoryEnum, { nullable: true }) category?: CategoryEnum | null,
    @Arg('severity', () => SeverityEnum, { nullable: true }) severity?: SeverityEnum | null,
  ): CheckDefinitionType[] {
    return checkDocs()
      .filter((doc) => (!category || doc.category === category) && (!severity || doc.severity === severity))
      .map(toType);
  }

  @Query(() => CheckDefinitionType, { description: 'One check by code; NOT_FOUND for a code the catalog lacks.' })
  check(@Arg('code', () => String) code: string): CheckDefinitionType {
    const doc = checkDoc(code);
    if (!doc) throw new DomainError('NOT_FOUND', `Check ${code.slice(0, 100)} not found in the catalog.`);
    return toType(doc);
  }
}
