import type { QueryClient } from '@tanstack/react-query';

/** Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them. */
export const agentTestingQueryKeys = {
  tests: ['workspace', 'convai', 'agent-tests'] as const,
  testList: (search: string) => ['workspace', 'convai', 'agent-tests', 'list', { search }] as const,
  invocations: ['workspace', 'convai', 'test-invocations'] as const,
  invocationList: ['workspace', 'convai', 'test-invocations', 'list'] as const,
  invocation: (id: string) => ['workspace', 'convai', 'test-invocations', 'detail', id] as const,
};

/** After a test was saved or deleted: the test lists load again. */
export function invalidateTests(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentTestingQueryKeys.tests });
}

/** After a run started, was cancelled or resubmitted: the invocations load again. */
export function invalidateInvocations(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentTestingQueryKeys.invocations });
}
