/**
 * The agents module's front door (issue 28 items 1 and 4): what the conversation socket, conversations and
 * the widget may use. Agents, tools and secrets are otherwise its own.
 */
export { openSecrets, privateToolAddressMessage } from './agent-tools.service';
export { type AgentDeps, agentDepsOf, sealingKeyOf } from './agents.context';
export {
  type ConversationAgent,
  type ConversationMcpTool,
  type ConversationTool,
  loadAgentForConversation,
  recordAgentCall,
  recordToolCall,
  type ToolCallHeader,
} from './agents.conversation';
export { hostOfOrigin, originAllowed } from './agents.rules';
export {
  agentForWidget,
  agentLinkUrl,
  requireAgent,
  type WidgetAsker,
  widgetConfigOf,
} from './agents.service';
