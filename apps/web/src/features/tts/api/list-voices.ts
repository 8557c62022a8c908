import { listVoicesRoute, type VoiceResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/voices` (history/voices §7): every voice the caller may use. */
export async function listVoices(signal?: AbortSignal): Promise<VoiceResponse[]> {
  return (await apiRequest(listVoicesRoute, { signal })).voices;
}

export function listVoicesQueryOptions() {
  return queryOptions({
    queryKey: ['voices'] as const,
    queryFn: ({ signal }) => listVoices(signal),
    staleTime: 5 * 60_000,
  });
}

export function useVoices() {
  return useQuery(listVoicesQueryOptions());
}
