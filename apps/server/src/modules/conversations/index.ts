/**
 * The conversations module's front door (issue 28): conversations are opened by their socket and read
 * through their own routes; agent testing asks an agent for one answer the way a conversation does; the
 * telephony module opens a phone call's conversation on its media stream.
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
export { issueSignature } from './conversation-services';
export { openConversationOn, recordPhoneCall } from './phone-socket';
