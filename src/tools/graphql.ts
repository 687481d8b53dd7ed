/** The GraphQL face of the module (resolvers, object types); its services and entities are in index.ts. */
export { ToolsResolver } from './tools.resolver.js';
export * from './tools.types.js';
