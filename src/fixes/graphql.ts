/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { FixResolver } from './fix.resolver.js';
export { FixSuggestionType, SuggestFixInput, FixSourceEnum } from './fix.types.js';
