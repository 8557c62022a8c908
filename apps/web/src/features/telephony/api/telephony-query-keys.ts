import type { QueryClient } from '@tanstack/react-query';

/** Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them. */
export const telephonyQueryKeys = {
  phoneNumbers: ['workspace', 'convai', 'phone-numbers'] as const,
  agentChoices: ['workspace', 'convai', 'phone-numbers', 'agent-choices'] as const,
  batches: ['workspace', 'convai', 'batch-calls'] as const,
  batch: (batchId: string) => ['workspace', 'convai', 'batch-calls', 'detail', batchId] as const,
};

/** After a number was imported, assigned or deleted: the list loads again. */
export function invalidatePhoneNumbers(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: telephonyQueryKeys.phoneNumbers });
}

/** After a batch was submitted or cancelled: the batch lists and pages load again. */
export function invalidateBatches(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: telephonyQueryKeys.batches });
}
