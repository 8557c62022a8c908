import { type CreateMcpServerRequest, createMcpServerRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateMcpServers } from './agents-query-keys';

/** `POST /v1/convai/mcp-servers`: the server checks the address (no private ones unless allowed). */
export function useCreateMcpServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMcpServerRequest) => apiRequest(createMcpServerRoute, { body }),
    onSuccess: () => {
      void invalidateMcpServers(queryClient);
    },
  });
}
