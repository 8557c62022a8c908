import { deleteMcpServerRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateAgents, invalidateMcpServers } from './agents-query-keys';

/** `DELETE /v1/convai/mcp-servers/{id}`: the agents that used it lose it too. */
export function useDeleteMcpServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: string) =>
      apiRequest(deleteMcpServerRoute, { params: { mcp_server_id: serverId } }),
    onSuccess: () => {
      void invalidateMcpServers(queryClient);
      void invalidateAgents(queryClient);
    },
  });
}
