export { ToolsService, TOOL_LIMITS } from './tools.service.js';
