import {
  conversationFeedbackRoute,
  conversationUsageRoute,
  deleteConversationRoute,
  getConversationAudioRoute,
  getConversationRoute,
  getConversationTokenRoute,
  getSignedUrlRoute,
  listConversationsRoute,
  llmStatusRoute,
  WEBSOCKET_ONLY_MESSAGE,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import { socketRoute } from '../../platform/realtime/websocket';
import { registerRoute } from '../../platform/route';
import { attachmentDisposition, sendStoredFile } from '../../platform/storage/send-file';
import { conversationUsage } from './conversation-lifecycle';
import { type ConversationSources, conversationServicesOf, issueSignature } from './conversation-services';
import { openConversationSocket } from './conversation-session';
import {
  conversationAudio,
  conversationFeedback,
  deleteConversation,
  getConversation,
  listWorkspaceConversations,
} from './conversations.service';

/** The socket's address as a browser reaches this server: the public URL, or the request's own host. */
function socketOrigin(deps: AppDeps, request: FastifyRequest): string {
  const base = deps.config.publicUrlGuessed
    ? `${request.protocol}://${request.headers.host ?? request.hostname}`
    : deps.config.publicUrl;
  return base.replace(/^http/, 'ws').replace(/\/+$/, '');
}

export function conversationsRoutes(sourcesOf: (deps: AppDeps) => ConversationSources) {
  return async (app: FastifyInstance, deps: AppDeps): Promise<void> => {
    const sources = sourcesOf(deps);
    const services = conversationServicesOf(deps, sources);
    const guarded = { onRequest: deps.auth.requireAuth };
    const store = { db: deps.database.db, storage: deps.storage };

    socketRoute(app, '/v1/convai/conversation', (socket, request) =>
      openConversationSocket(deps, services, socket, request),
    );

    registerRoute(
      app,
      getSignedUrlRoute,
      async ({ request, query }) => {
        const caller = callerOf(request);
        const agent = await sources.loadAgent(query.agent_id);
        if (!agent || agent.workspaceId !== caller.workspaceId) throw notFound('The agent');
        const signature = await issueSignature(deps, {
          agentId: agent.agentId,
          workspaceId: caller.workspaceId,
          userId: caller.userId,
        });
        const url = new URL(`${socketOrigin(deps, request)}/v1/convai/conversation`);
        url.searchParams.set('agent_id', agent.agentId);
        url.searchParams.set('conversation_signature', signature);
        return { signed_url: url.toString() };
      },
      guarded,
    );

    registerRoute(
      app,
      getConversationTokenRoute,
      async () => {
        throw new AppError('bad_request', WEBSOCKET_ONLY_MESSAGE);
      },
      guarded,
    );

    registerRoute(
      app,
      conversationUsageRoute,
      async ({ request }) => conversationUsage(deps, callerOf(request).workspaceId),
      guarded,
    );

    registerRoute(
      app,
      llmStatusRoute,
      async () => {
        const status = deps.providers.llm.status();
        return {
          mode: status.available ? ('llm' as const) : ('knowledge_base' as const),
          provider: status.name,
          model: status.model,
          tool_calls: status.available && status.toolCalls,
          note: (status.available ? status.note : status.reason) ?? null,
        };
      },
      guarded,
    );

    registerRoute(
      app,
      listConversationsRoute,
      async ({ request, query }) => listWorkspaceConversations(store, callerOf(request), query),
      guarded,
    );
    registerRoute(
      app,
      getConversationRoute,
      async ({ request, params }) => getConversation(store, callerOf(request), params.conversation_id),
      guarded,
    );
    registerRoute(
      app,
      getConversationAudioRoute,
      async ({ request, reply, params }) => {
        const audio = await conversationAudio(store, callerOf(request), params.conversation_id);
        reply.header('content-disposition', attachmentDisposition(`${params.conversation_id}.mp3`, 'inline'));
        return sendStoredFile(request, reply, deps.storage, {
          key: audio.key,
          size: audio.size,
          contentType: 'audio/mpeg',
          cacheControl: 'private, max-age=0, must-revalidate',
        });
      },
      guarded,
    );
    registerRoute(
      app,
      deleteConversationRoute,
      async ({ request, params }) => {
        await deleteConversation(store, callerOf(request), params.conversation_id);
        return {};
      },
      guarded,
    );
    // No key: the official client posts it from the page (the conversation's id is the permission).
    registerRoute(app, conversationFeedbackRoute, async ({ params, body }) => {
      await conversationFeedback(store, params.conversation_id, body);
      return {};
    });
  };
}
