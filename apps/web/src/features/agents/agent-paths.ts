/** The pages of the conversational AI area (lib/app-paths.ts holds them; these build their addresses). */
export const AGENTS_PATH = '/app/conversational-ai';
export const NEW_AGENT_PATH = '/app/conversational-ai/new';
export const AGENT_TOOLS_PATH = '/app/conversational-ai/tools';
export const AGENT_SETTINGS_PATH = '/app/conversational-ai/settings';
export const INTEGRATIONS_PATH = '/app/conversational-ai/integrations';
export const KNOWLEDGE_BASE_PATH = '/app/conversational-ai/knowledge-base';

/** The editor of one agent, opened on a tab (the Agent tab when left out). */
export function agentEditorPath(agentId: string, tab?: string): string {
  const path = `/app/conversational-ai/agents/${encodeURIComponent(agentId)}`;
  return tab && tab !== 'agent' ? `${path}?tab=${tab}` : path;
}
