/** The conversations feature's front door: the pieces the history and talk-to pages compose. */
export { useConversation } from './api/get-conversation';
export { useAgentsForPicker } from './api/list-agents';
export { ConversationList, conversationPath } from './components/conversation-list';
export { ConversationView } from './components/conversation-view';
export { TalkPanel } from './components/talk-panel';
