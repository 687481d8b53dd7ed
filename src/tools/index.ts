export { ToolsService, TOOL_LIMITS } from './tools.service.js';
export { ToolsResolver } from './tools.resolver.js';
export * from './tools.types.js';
