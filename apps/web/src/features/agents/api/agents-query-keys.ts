import type { QueryClient } from '@tanstack/react-query';

/**
 * Under the current workspace's key (`['workspace']`): switching workspaces or signing out clears them.
 * Agents, tools, secrets and the knowledge-base list the editor attaches from each have their own branch.
 */
export const agentsQueryKeys = {
  all: ['workspace', 'convai', 'agents'] as const,
  list: (search: string) => ['workspace', 'convai', 'agents', 'list', { search }] as const,
  detail: (agentId: string) => ['workspace', 'convai', 'agents', 'detail', agentId] as const,
  tools: ['workspace', 'convai', 'tools'] as const,
  toolList: (search: string) => ['workspace', 'convai', 'tools', 'list', { search }] as const,
  secrets: ['workspace', 'convai', 'secrets'] as const,
  mcpServers: ['workspace', 'convai', 'mcp-servers'] as const,
  mcpServerTools: (serverId: string) => ['workspace', 'convai', 'mcp-servers', 'tools', serverId] as const,
  settings: ['workspace', 'convai', 'settings'] as const,
  liveCount: ['workspace', 'convai', 'analytics', 'live-count'] as const,
  daily: (days: number) => ['workspace', 'convai', 'analytics', 'daily', { days }] as const,
  knowledgeBase: (search: string) => ['workspace', 'convai', 'knowledge-base', 'list', { search }] as const,
};

/** After an agent was created, changed, copied or deleted: every agent list and page loads again. */
export function invalidateAgents(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentsQueryKeys.all });
}

/** After a tool changed: the tool lists load again. */
export function invalidateTools(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentsQueryKeys.tools });
}

/** After a secret changed: the secret list loads again (and the tools, whose headers name secrets). */
export function invalidateSecrets(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentsQueryKeys.secrets });
}

/** After an MCP server changed: the list (and each server's tools with their approvals) loads again. */
export function invalidateMcpServers(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentsQueryKeys.mcpServers });
}
