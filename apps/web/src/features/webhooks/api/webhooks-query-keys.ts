import type { QueryClient } from '@tanstack/react-query';

/** Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them. */
export const webhooksQueryKeys = {
  all: ['workspace', 'webhooks'] as const,
  list: ['workspace', 'webhooks', 'list'] as const,
  deliveries: (webhookId: string) => ['workspace', 'webhooks', 'deliveries', webhookId] as const,
};

/** After a webhook changes (or a test was sent): its list and logs load again. Not awaited by callers. */
export function invalidateWebhooks(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: webhooksQueryKeys.all });
}
