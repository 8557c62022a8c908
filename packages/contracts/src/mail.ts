import { z } from 'zod';
import { defineRoute } from './routes';

/** A mail kept by the local outbox. */
export const OutboxEmail = z
  .object({
    email_id: z.string(),
    to: z.string(),
    from: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    kind: z.string(),
    created_at_unix: z.number().int(),
  })
  .meta({ id: 'OutboxEmail' });
export type OutboxEmail = z.infer<typeof OutboxEmail>;

export const ListOutboxEmailsQuery = z.object({
  to: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const ListOutboxEmailsResponse = z.object({ emails: z.array(OutboxEmail) });

/** The local outbox, newest first; only outside production (ARCHITECTURE.md "mail"). */
export const listOutboxEmailsRoute = defineRoute({
  method: 'GET',
  path: '/dev/mailbox',
  summary: 'Mail kept by the local outbox (not in production)',
  tags: ['development'],
  query: ListOutboxEmailsQuery,
  response: ListOutboxEmailsResponse,
});

export const getOutboxEmailRoute = defineRoute({
  method: 'GET',
  path: '/dev/mailbox/:email_id',
  summary: 'One mail of the local outbox (not in production)',
  tags: ['development'],
  params: z.object({ email_id: z.string() }),
  response: OutboxEmail,
});
