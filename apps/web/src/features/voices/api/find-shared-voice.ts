import type { LibraryVoice } from '@parla/contracts';
import { sharedVoicesRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/** Pages of an owner's shared voices looked through at most (100 voices a page). */
const MAX_PAGES = 20;

/**
 * One shared voice, found among its owner's (`GET /v1/shared-voices?owner_id=`, page by page), or null
 * when the owner does not share it (any more).
 */
export async function findSharedVoice(
  publicUserId: string,
  voiceId: string,
  signal?: AbortSignal,
): Promise<LibraryVoice | null> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await apiRequest(sharedVoicesRoute, {
      query: { owner_id: publicUserId, page, page_size: 100, sort: 'created_date' },
      signal,
    });
    const found = answer.voices.find((voice) => voice.voice_id === voiceId);
    if (found) return found;
    if (!answer.has_more) return null;
  }
  return null;
}

export function sharedVoiceQueryOptions(publicUserId: string, voiceId: string) {
  return queryOptions({
    queryKey: voiceQueryKeys.sharedVoice(publicUserId, voiceId),
    queryFn: ({ signal }) => findSharedVoice(publicUserId, voiceId, signal),
  });
}

export function useSharedVoice(publicUserId: string, voiceId: string) {
  return useQuery(sharedVoiceQueryOptions(publicUserId, voiceId));
}
