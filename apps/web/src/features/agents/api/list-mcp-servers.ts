import { listMcpServersRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys } from './agents-query-keys';

/** `GET /v1/convai/mcp-servers`: the workspace's MCP servers (a workspace keeps few: one page). */
export function useMcpServers() {
  return useQuery({
    queryKey: agentsQueryKeys.mcpServers,
    queryFn: ({ signal }) => apiRequest(listMcpServersRoute, { signal }),
  });
}
