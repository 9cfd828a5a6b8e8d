// The MCP module's public entry: the Model Context Protocol endpoint for AI agents.
export { createMcpModule, type McpModule } from './module.ts';
export { TOOLS } from './tools.ts';
