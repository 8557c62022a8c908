import {
  cancelTestInvocationRoute,
  getTestInvocationRoute,
  listTestInvocationsRoute,
  resubmitTestInvocationRoute,
  type TestRunStatus,
} from '@parla/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { agentTestingQueryKeys, invalidateInvocations } from './agent-testing-query-keys';

/** How often unfinished runs are looked at again. */
export const RUNS_POLL_MS = 1500;
const unfinished = (status: TestRunStatus) => status === 'pending' || status === 'running';

/** `GET /v1/convai/test-invocations`: the latest runs, polled while any is unfinished. */
export function useTestInvocations() {
  return useQuery({
    queryKey: agentTestingQueryKeys.invocationList,
    queryFn: ({ signal }) => apiRequest(listTestInvocationsRoute, { query: { page_size: 20 }, signal }),
    refetchInterval: (query) =>
      query.state.data?.results.some((r) => unfinished(r.status)) ? RUNS_POLL_MS : false,
  });
}

/** `GET /v1/convai/test-invocations/{id}`: each run's verdict, polled while any is unfinished. */
export function useTestInvocation(id: string, enabled: boolean) {
  return useQuery({
    queryKey: agentTestingQueryKeys.invocation(id),
    queryFn: ({ signal }) =>
      apiRequest(getTestInvocationRoute, { params: { test_invocation_id: id }, signal }),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.test_runs.some((r) => unfinished(r.status)) ? RUNS_POLL_MS : false,
  });
}

/** `POST …/{id}/cancel`. */
export function useCancelInvocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(cancelTestInvocationRoute, { params: { test_invocation_id: id } }),
    onSuccess: () => {
      void invalidateInvocations(queryClient);
    },
  });
}

/** `POST …/{id}/resubmit`: the named finished runs again. */
export function useResubmitRuns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { invocationId: string; agentId: string; runIds: string[] }) =>
      apiRequest(resubmitTestInvocationRoute, {
        params: { test_invocation_id: input.invocationId },
        body: { test_run_ids: input.runIds, agent_id: input.agentId },
      }),
    onSuccess: () => {
      void invalidateInvocations(queryClient);
    },
  });
}
