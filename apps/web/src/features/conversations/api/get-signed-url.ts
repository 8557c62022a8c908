import { getSignedUrlRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `GET /v1/convai/conversation/get-signed-url`: a URL that opens one conversation with the agent, within
 * 15 minutes, once. Asked afresh for each conversation, never cached.
 */
export async function getSignedUrl(agentId: string, signal?: AbortSignal): Promise<string> {
  const answer = await apiRequest(getSignedUrlRoute, { query: { agent_id: agentId }, signal });
  return answer.signed_url;
}
