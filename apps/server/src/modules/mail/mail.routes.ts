import { getOutboxEmailRoute, listOutboxEmailsRoute } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../platform/errors';
import { registerRoute } from '../../platform/route';
import { presentOutboxEmail } from './mail.present';
import { getOutboxEmail, listOutboxEmails } from './mail.store';

/** `/dev/mailbox`: read the local outbox. Registered only outside production (see app.ts). */
export async function devMailboxRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'database'>): Promise<void> {
  const { db } = deps.database;
  registerRoute(app, listOutboxEmailsRoute, async ({ query }) => ({
    emails: (await listOutboxEmails(db, { ...(query.to ? { to: query.to } : {}), limit: query.limit })).map(
      presentOutboxEmail,
    ),
  }));
  registerRoute(app, getOutboxEmailRoute, async ({ params }) => {
    const row = await getOutboxEmail(db, params.email_id);
    if (!row) throw notFound('This mail');
    return presentOutboxEmail(row);
  });
}
