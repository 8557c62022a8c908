import {
  dailyAnalyticsRoute,
  getConvAiSettingsRoute,
  liveCountRoute,
  type PatchConvAiSettings,
  updateConvAiSettingsRoute,
} from '@parla/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentsQueryKeys } from './agents-query-keys';

/** `GET /v1/convai/settings`: the workspace's Conversational AI settings. */
export function getConvaiSettings(signal?: AbortSignal) {
  return apiRequest(getConvAiSettingsRoute, { signal });
}

export function useConvaiSettings() {
  return useQuery(
    queryOptions({ queryKey: agentsQueryKeys.settings, queryFn: ({ signal }) => getConvaiSettings(signal) }),
  );
}

/** `PATCH /v1/convai/settings`: the answer is the settings as kept, put in the cache at once. */
export function useUpdateConvaiSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchConvAiSettings) => apiRequest(updateConvAiSettingsRoute, { body }),
    onSuccess: (settings) => queryClient.setQueryData(agentsQueryKeys.settings, settings),
  });
}

/** How often the live count is asked again while the page is open. */
export const LIVE_COUNT_REFRESH_MS = 15_000;

/** `GET /v1/convai/analytics/live-count`: the conversations in progress now. */
export function useLiveCount() {
  return useQuery({
    queryKey: agentsQueryKeys.liveCount,
    queryFn: ({ signal }) => apiRequest(liveCountRoute, { query: {}, signal }),
    refetchInterval: LIVE_COUNT_REFRESH_MS,
  });
}

/** `GET /v1/convai/analytics/daily`: conversations and minutes per day, and the dashboard charts' figures. */
export function useDailyAnalytics(days: number) {
  return useQuery({
    queryKey: agentsQueryKeys.daily(days),
    queryFn: ({ signal }) => apiRequest(dailyAnalyticsRoute, { query: { days }, signal }),
  });
}
