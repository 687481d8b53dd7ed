/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { TechnicalResolver } from './technical.resolver.js';
export {
  TechnicalType,
  CoreWebVitalsType,
  SiteTechnicalFactsType,
  SiteFactCheckType,
  VitalBandType,
} from './technical.types.js';
