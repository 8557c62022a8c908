import { getTrainingOptOutRoute, type TrainingOptOutResponse } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const trainingOptOutQueryKey = ['workspace', 'training-opt-out'] as const;

/** `GET /v1/workspace/training-opt-out`: the setting (accounts §3) and whether the caller may change it (§6). */
export function getTrainingOptOut(signal?: AbortSignal): Promise<TrainingOptOutResponse> {
  return apiRequest(getTrainingOptOutRoute, { signal });
}

export function getTrainingOptOutQueryOptions() {
  return queryOptions({
    queryKey: trainingOptOutQueryKey,
    queryFn: ({ signal }) => getTrainingOptOut(signal),
  });
}

/** The workspace's data-training opt-out; pass `enabled: false` until it is needed. */
export function useTrainingOptOut({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getTrainingOptOutQueryOptions(), enabled });
}
