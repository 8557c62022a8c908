import { createSingleUseTokenRoute, type SingleUseTokenType } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/single-use-token/{token_type}` with the signed-in session: a token that opens one socket of
 * its type within 15 minutes, so the browser never holds an API key (issue 20 item 5).
 */
export async function createSingleUseToken(type: SingleUseTokenType, signal?: AbortSignal): Promise<string> {
  const answer = await apiRequest(createSingleUseTokenRoute, { params: { token_type: type }, signal });
  return answer.token;
}
