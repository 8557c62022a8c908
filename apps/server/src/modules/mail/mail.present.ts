import type { OutboxEmail } from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { OutboxEmailRow } from './mail.tables';

export function presentOutboxEmail(row: OutboxEmailRow): OutboxEmail {
  return {
    email_id: row.id,
    to: row.to,
    from: row.from,
    subject: row.subject,
    text: row.text,
    html: row.html,
    kind: row.kind,
    created_at_unix: toUnixSeconds(row.createdAt),
  };
}
