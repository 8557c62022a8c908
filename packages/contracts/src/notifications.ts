import { z } from 'zod';
import { defineRoute } from './routes';

const Ok = z.object({ status: z.literal('ok') });

/** accounts §3 Message.severity: how the bell's list styles a message. */
export const MESSAGE_SEVERITIES = ['info', 'success', 'warning', 'error'] as const;
export type MessageSeverity = (typeof MESSAGE_SEVERITIES)[number];

/**
 * accounts §3 Event.event: what the web app reports about a message. Reading is recorded by the read calls
 * themselves (as `read`), so a client sends only what the server cannot see.
 */
export const MESSAGE_EVENTS = ['shown', 'clicked', 'dismissed'] as const;
export type UserMessageEvent = (typeof MESSAGE_EVENTS)[number];

/** The newest messages `GET /v1/user/messages` answers; `unread_count` counts all of them. */
export const MESSAGE_LIST_LIMIT = 50;

/** accounts §3 "Message", plus the in-app path its action leads to. */
export const UserMessage = z
  .object({
    message_id: z.string(),
    severity: z.enum(MESSAGE_SEVERITIES),
    title: z.string(),
    description: z.string(),
    /** Shown until acted on (e.g. a workspace invite waiting for an answer). */
    needs_attention: z.boolean(),
    create_date_unix_ms: z.number().int(),
    has_been_read: z.boolean(),
    /** A path under /app the message's action opens, or null. */
    link: z.string().nullable(),
  })
  .meta({ id: 'UserMessage' });
export type UserMessage = z.infer<typeof UserMessage>;

export const ListUserMessagesResponse = z.object({
  messages: z.array(UserMessage),
  unread_count: z.number().int(),
});
export type ListUserMessagesResponse = z.infer<typeof ListUserMessagesResponse>;

const MessageParams = z.object({ message_id: z.string().min(1).max(64) });

/** Parla: the caller's own messages, newest first (at most MESSAGE_LIST_LIMIT), and how many are unread. */
export const listUserMessagesRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/messages',
  summary: 'The signed-in user’s messages (notifications), newest first, and the unread count',
  tags: ['user'],
  response: ListUserMessagesResponse,
});

export const markUserMessageReadRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/messages/:message_id/read',
  summary: 'Mark one of the user’s messages as read',
  tags: ['user'],
  params: MessageParams,
  response: Ok,
});

export const markAllUserMessagesReadRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/messages/read-all',
  summary: 'Mark every message of the user as read',
  tags: ['user'],
  response: Ok,
});

/** accounts §3 "Event": `{message_id, event}`, the message id in the path. */
export const recordUserMessageEventRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/messages/:message_id/events',
  summary: 'Record what happened to one of the user’s messages (shown, clicked, dismissed)',
  tags: ['user'],
  params: MessageParams,
  body: z.object({ event: z.enum(MESSAGE_EVENTS) }).strict(),
  response: Ok,
});
