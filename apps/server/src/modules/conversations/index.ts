/**
 * The conversations module's front door (issue 28): conversations are opened by their socket and read
 * through their own routes; agent testing asks an agent for one answer the way a conversation does.
 */
export {
  type AgentTurnResult,
  answerAsAgent,
  type ChatMessage,
  type ChatModel,
  type ChatToolCall,
  languageModelOf,
  TOOL_NOT_RUN,
} from './agent-turn';
