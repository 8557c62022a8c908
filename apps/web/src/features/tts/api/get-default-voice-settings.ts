import { getDefaultVoiceSettingsRoute, type VoiceSettings } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/voices/settings/default`: the settings a voice starts with. */
export function getDefaultVoiceSettings(signal?: AbortSignal): Promise<VoiceSettings> {
  return apiRequest(getDefaultVoiceSettingsRoute, { signal });
}

export function getDefaultVoiceSettingsQueryOptions() {
  return queryOptions({
    queryKey: ['voices', 'settings', 'default'] as const,
    queryFn: ({ signal }) => getDefaultVoiceSettings(signal),
    staleTime: 10 * 60_000,
  });
}

export function useDefaultVoiceSettings() {
  return useQuery(getDefaultVoiceSettingsQueryOptions());
}
