import type { ResponseMode } from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import { agentDepsOf, loadAgentForConversation } from '../agents';
import { conversationServicesOf } from './conversation-services';
import { chatModelOf, conversationSourcesOf, sessionAgentOf } from './conversation-sources';
import type { ChatMessage, ChatModel, ChatToolCall } from './responder';
import { applyClientData } from './session-agent';

/*
 * One answer of an agent to a written history, outside any socket (issue 28, agent testing): the same
 * agent resolution, responder and language model a conversation uses, so a test checks the agent's own
 * rules. Tools are not run: a test must not call a webhook or wait for a client. The first round of tool
 * calls is recorded and ends the turn, as the model asked for them.
 */

export type { ChatMessage, ChatModel, ChatToolCall } from './responder';

export interface AgentTurnResult {
  mode: ResponseMode;
  /** The model that answered, or why there is none (knowledge-base mode). */
  reason: string;
  text: string;
  toolCalls: ChatToolCall[];
  /** The agent's tools by id (webhook and client tools of the workspace, system tools by name). */
  tools: { id: string; name: string; type: 'webhook' | 'client' | 'system' }[];
}

/** What a tool call in a test is told: it was not run. */
export const TOOL_NOT_RUN = 'Not run: this is a test, the call was only recorded.';

/** The agent (of `workspaceId`: another workspace's is not found) answers the history's last user turn. */
export async function answerAsAgent(
  deps: AppDeps,
  input: {
    agentId: string;
    workspaceId: string;
    history: ChatMessage[];
    dynamicVariables: Record<string, string | number | boolean>;
    signal: AbortSignal;
  },
): Promise<AgentTurnResult | undefined> {
  const stored = await loadAgentForConversation(agentDepsOf(deps), input.agentId);
  if (!stored || stored.workspaceId !== input.workspaceId) return undefined;
  const agent = applyClientData(sessionAgentOf(stored), {
    type: 'conversation_initiation_client_data',
    dynamic_variables: input.dynamicVariables,
  });
  const responder = await conversationServicesOf(deps, conversationSourcesOf(deps)).responderFor(agent);
  let text = '';
  const toolCalls: ChatToolCall[] = [];
  for await (const event of responder.turn(
    [...input.history],
    async (call) => {
      toolCalls.push(call);
      return { text: TOOL_NOT_RUN, isError: false, endsTurn: true };
    },
    input.signal,
  ))
    if (event.type === 'text') text += event.text;
  const tools = stored.tools.map((tool) => ({ id: tool.id, name: tool.config.name, type: tool.type }));
  // The built-in system tools switched on in the prompt are referred to by their name.
  for (const [name, config] of Object.entries(stored.config.agent.prompt.built_in_tools))
    if (config && !tools.some((t) => t.name === name)) tools.push({ id: name, name, type: 'system' });
  return { mode: responder.mode, reason: responder.reason, text: text.trim(), toolCalls, tools };
}

/** The workspace's language model as a chat model, or why there is none. */
export function languageModelOf(deps: AppDeps): { model: ChatModel } | { reason: string } {
  const status = deps.providers.llm.status();
  if (!status.available) return { reason: status.reason ?? 'No language model is configured.' };
  return { model: chatModelOf(deps.providers.llm) };
}
