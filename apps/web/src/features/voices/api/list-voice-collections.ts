import { listCollectionsRoute, type VoiceCollection } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/** `GET /v1/voices/collections`: the workspace's voice collections. */
export async function listVoiceCollections(signal?: AbortSignal): Promise<VoiceCollection[]> {
  return (await apiRequest(listCollectionsRoute, { signal })).collections;
}

export function voiceCollectionsQueryOptions() {
  return queryOptions({
    queryKey: voiceQueryKeys.collections,
    queryFn: ({ signal }) => listVoiceCollections(signal),
  });
}

export function useVoiceCollections() {
  return useQuery(voiceCollectionsQueryOptions());
}
