/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { CheckCatalogResolver } from './check-catalog.resolver.js';
export { CategoryEnum, CheckDefinitionType, CheckRequirementEnum, SeverityEnum } from './check-catalog.types.js';
export { CheckSettingsResolver } from './check-settings.resolver.js';
export { CheckSettingInput, CheckSettingType } from './check-settings.types.js';
