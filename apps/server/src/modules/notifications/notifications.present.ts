import type { UserMessage } from '@parla/contracts';
import type { UserMessageRow } from './notifications.tables';

/** A stored message as the bell shows it (accounts §3 "Message"). */
export function presentUserMessage(row: UserMessageRow): UserMessage {
  return {
    message_id: row.id,
    severity: row.severity,
    title: row.title,
    description: row.description,
    needs_attention: row.needsAttention,
    create_date_unix_ms: row.createdAt.getTime(),
    has_been_read: row.readAt !== null,
    link: row.link,
  };
}
