// The MCP module: the Model Context Protocol endpoint for AI agents. Its tools wrap routes of the API and take
// their input schemas from them, so it is registered last and its tools are made when it is registered.
import type { Clock } from '../../platform/clock.ts';
import { type Module, routes } from '../../platform/module.ts';
import type { RouteCatalogue } from '../../platform/route-catalogue.ts';
import type { CrisisService } from '../crisis/index.ts';
import { mcpRoutes } from './routes.ts';
import { McpTools } from './service.ts';

interface McpModuleDeps {
  /** Every route registered before this module's. */
  catalogue: RouteCatalogue;
  crisis: Pick<CrisisService, 'blockingEventFor'>;
  clock: Clock;
  version: string;
}

export type McpModule = Module<Record<string, never>, 'mcp'>;

export function createMcpModule(deps: McpModuleDeps): McpModule {
  const { catalogue, crisis, clock, version } = deps;
  return {
    api: {},
    routes: {
      mcp: routes(mcpRoutes, () => ({ tools: new McpTools({ routes: catalogue, crisis, clock }), version })),
    },
  };
}
