import type { ConversationPhoneCall } from '@parla/contracts';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../../app-deps';
import { type ConversationServices, conversationServicesOf } from './conversation-services';
import { openConversationSocket } from './conversation-session';
import { conversationSourcesOf } from './conversation-sources';
import { updateConversation } from './conversations.store';

/*
 * What the telephony module uses to hold a phone call as a conversation (issue 28, phone numbers): the
 * conversation socket's own session, opened on a socket-like adapter (the Twilio media stream presented
 * as a convai client) with a signed URL's signature, so a phone call goes through exactly the checks,
 * minutes and turn loop of any other conversation.
 */

const servicesByApp = new WeakMap<AppDeps, ConversationServices>();

/**
 * Opens a conversation with `agentId` on `socket` (anything that behaves as a `ws` WebSocket), authorised
 * by `signature` (`issueSignature`): the session reads it as a signed URL's query.
 */
export function openConversationOn(
  deps: AppDeps,
  socket: WebSocket,
  input: { agentId: string; signature: string },
): void {
  let services = servicesByApp.get(deps);
  if (!services) {
    services = conversationServicesOf(deps, conversationSourcesOf(deps));
    servicesByApp.set(deps, services);
  }
  // The session reads only the query and the headers of its request.
  const request = {
    query: { agent_id: input.agentId, conversation_signature: input.signature },
    headers: {},
  } as unknown as FastifyRequest;
  openConversationSocket(deps, services, socket, request);
}

/** The conversation came over a phone call: its metadata says which (`metadata.phone_call`). */
export function recordPhoneCall(
  deps: Pick<AppDeps, 'database'>,
  conversationId: string,
  phoneCall: ConversationPhoneCall,
): Promise<void> {
  return updateConversation(deps.database.db, conversationId, { phoneCall });
}
