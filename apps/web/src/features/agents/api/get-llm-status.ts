import { llmStatusRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/convai/llm-status`: the language model this server's agents answer with, or knowledge-base mode. */
export function useLlmStatus() {
  return useQuery({
    queryKey: ['convai', 'llm-status'],
    queryFn: ({ signal }) => apiRequest(llmStatusRoute, { signal }),
    staleTime: 60_000,
  });
}
