import { defineModule } from '../../platform/module';
import { agentRoutes } from './agents.routes';
import * as tables from './agents.tables';
import { mcpServerRoutes } from './mcp-servers.routes';

/** Conversational agents, their tools and the workspace's secrets (issue 28 items 1 and 4). */
export const agentsModule = defineModule({
  name: 'agents',
  routes: [agentRoutes, mcpServerRoutes],
  tables,
});
