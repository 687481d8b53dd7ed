/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { IdentityResolver } from './identity.resolver.js';
export {
  PlanEnum,
  ApiAccessEnum,
  OrganizationType,
  ApiKeyType,
  CreatedApiKeyType,
  ViewerType,
  MemberType,
} from './identity.types.js';
