import { buildPath, type ConversationDetail, getConversationAudioRoute } from '@parla/contracts';
import type { Playback } from '../player';

/**
 * A conversation's recording for the bottom player: `GET /v1/convai/conversations/{id}/audio` (both
 * sides, MP3), fetched with the bearer token like history audio.
 */
export function conversationPlayback(
  conversation: Pick<ConversationDetail, 'conversation_id' | 'agent_name' | 'metadata'>,
  autoStart: boolean,
): Playback {
  const agent = conversation.agent_name ?? 'an agent';
  return [
    {
      id: conversation.conversation_id,
      fileName: `conversation-${conversation.conversation_id}.mp3`.replace(/[^\w.-]+/g, '_'),
      type: 'conversation',
      loaded: true,
      player: {
        title: `Conversation with ${agent}`,
        description: 'Conversation recording',
        duration: conversation.metadata.call_duration_secs * 1000,
      },
      autoStart,
    },
    {
      kind: 'url',
      url: buildPath(getConversationAudioRoute.path, { conversation_id: conversation.conversation_id }),
      authenticated: true,
    },
  ];
}
