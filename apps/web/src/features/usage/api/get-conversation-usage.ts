import { conversationUsageRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/convai/usage`: conversation minutes this period and conversations open now (accounts §9). */
export function useConversationUsage() {
  return useQuery({
    queryKey: ['workspace', 'convai', 'usage'],
    queryFn: ({ signal }) => apiRequest(conversationUsageRoute, { signal }),
  });
}
