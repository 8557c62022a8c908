import {
  listUserMessagesRoute,
  markAllUserMessagesReadRoute,
  markUserMessageReadRoute,
  recordUserMessageEventRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import {
  listMessages,
  markAllMessagesRead,
  markMessageRead,
  recordMessageEvent,
} from './notifications.service';

const ok = { status: 'ok' as const };

/** The bell's calls under /v1/user/messages: a user reads and marks only their own messages. */
export async function notificationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const guarded = { onRequest: deps.auth.requireAuth };

  registerRoute(
    app,
    listUserMessagesRoute,
    async ({ request }) => listMessages(db, principalOf(request).userId),
    guarded,
  );
  registerRoute(
    app,
    markUserMessageReadRoute,
    async ({ request, params }) => {
      await markMessageRead(db, principalOf(request).userId, params.message_id, deps.clock.now());
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    markAllUserMessagesReadRoute,
    async ({ request }) => {
      await markAllMessagesRead(db, principalOf(request).userId, deps.clock.now());
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    recordUserMessageEventRoute,
    async ({ request, params, body }) => {
      await recordMessageEvent(db, principalOf(request).userId, params.message_id, body.event);
      return ok;
    },
    guarded,
  );
}
