// The MCP module's public entry: the Model Context Protocol endpoint for AI agents.
export { mcpRoutes } from './routes.ts';
export { McpTools } from './service.ts';
export { TOOLS } from './tools.ts';
