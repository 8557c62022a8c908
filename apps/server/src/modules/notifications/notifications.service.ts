import {
  type ListUserMessagesResponse,
  MESSAGE_LIST_LIMIT,
  type MessageSeverity,
  type UserMessageEvent,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { presentUserMessage } from './notifications.present';
import {
  countUnreadUserMessages,
  getUserMessage,
  insertUserMessage,
  insertUserMessageEvents,
  listUserMessages,
  markUserMessagesRead,
} from './notifications.store';

/** What a module tells a user through the bell (accounts §3 "Message"). */
export interface NewUserMessage {
  severity: MessageSeverity;
  title: string;
  description?: string;
  /** Keep it in view until acted on (e.g. an invite waiting for an answer, a payment that failed). */
  needsAttention?: boolean;
  /** A path in the web app (`/app/…`) the message opens; never another site. */
  link?: string | null;
}

/**
 * Leaves a message for a user under the bell; answers its id. Other modules call this inside their own
 * transaction (pass the `tx`), so the message stands or falls with the change it reports.
 */
export async function notifyUser(db: Db, userId: string, message: NewUserMessage): Promise<string> {
  const link = message.link ?? null;
  if (link !== null && (!link.startsWith('/') || link.startsWith('//'))) {
    throw new Error(`notifyUser: a message links to a path of the app, not "${link}"`);
  }
  const id = newId();
  await insertUserMessage(db, {
    id,
    userId,
    severity: message.severity,
    title: message.title,
    description: message.description ?? '',
    needsAttention: message.needsAttention ?? false,
    link,
  });
  return id;
}

/** `GET /v1/user/messages`: the caller's newest messages and how many of all of them are unread. */
export async function listMessages(db: Db, userId: string): Promise<ListUserMessagesResponse> {
  const [rows, unread] = await Promise.all([
    listUserMessages(db, userId, MESSAGE_LIST_LIMIT),
    countUnreadUserMessages(db, userId),
  ]);
  return { messages: rows.map(presentUserMessage), unread_count: unread };
}

/** A message of another user is "not found", exactly like one that does not exist. */
async function requireOwnMessage(db: Db, userId: string, messageId: string): Promise<void> {
  if (!(await getUserMessage(db, userId, messageId))) throw notFound('This message');
}

/** Marks one of the caller's messages read (again is fine) and records the `read` event once. */
export async function markMessageRead(db: Db, userId: string, messageId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await requireOwnMessage(tx, userId, messageId);
    const changed = await markUserMessagesRead(tx, userId, now, messageId);
    await insertUserMessageEvents(
      tx,
      changed.map((id) => ({ id: newId(), messageId: id, event: 'read' })),
    );
  });
}

/** Marks every unread message of the caller read, each with its `read` event. */
export async function markAllMessagesRead(db: Db, userId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await markUserMessagesRead(tx, userId, now);
    await insertUserMessageEvents(
      tx,
      changed.map((id) => ({ id: newId(), messageId: id, event: 'read' })),
    );
  });
}

/** accounts §3 "Event": stores `{message_id, event}` for one of the caller's messages. */
export async function recordMessageEvent(
  db: Db,
  userId: string,
  messageId: string,
  event: UserMessageEvent,
): Promise<void> {
  await requireOwnMessage(db, userId, messageId);
  await insertUserMessageEvents(db, [{ id: newId(), messageId, event }]);
}
