import { listMcpServerToolsRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys } from './agents-query-keys';

/** `GET /v1/convai/mcp-servers/{id}/tools`: asked of the server itself each time (it may have changed). */
export function useMcpServerTools(serverId: string, enabled: boolean) {
  return useQuery({
    queryKey: agentsQueryKeys.mcpServerTools(serverId),
    queryFn: ({ signal }) =>
      apiRequest(listMcpServerToolsRoute, { params: { mcp_server_id: serverId }, signal }),
    enabled,
    staleTime: 0,
  });
}
