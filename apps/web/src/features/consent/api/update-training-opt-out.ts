import { type TrainingOptOutResponse, updateWorkspaceRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { trainingOptOutQueryKey } from './get-training-opt-out';

/** `POST /v1/workspace/update-workspace` with `training_opt_out` (accounts §7; admins only, §6). */
export function updateTrainingOptOut(value: boolean): Promise<TrainingOptOutResponse> {
  return apiRequest(updateWorkspaceRoute, { body: { training_opt_out: value } });
}

/** Changes the setting; the answer replaces the cached one. */
export function useUpdateTrainingOptOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTrainingOptOut,
    onSuccess: (answer) => queryClient.setQueryData(trainingOptOutQueryKey, answer),
  });
}
