import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { defineJob } from '../../platform/jobs/job-definition';
import { CONVERSATION_HEARTBEAT_STALE_MS } from './conversation-lifecycle';
import { type ConversationsDeps, deleteExpiredConversations } from './conversations.service';
import { failStaleConversations } from './conversations.store';

/**
 * Conversations past their agent's retention (privacy.retention_days), deleted with their recordings; and
 * those a stopped process left in progress, ended as failed.
 */
export const conversationRetentionJob = defineJob<
  Record<string, never>,
  ConversationsDeps & { clock: Clock }
>({
  name: 'conversations.retention',
  payload: z.object({}),
  maxAttempts: 3,
  async handler(_payload, _ctx, deps) {
    // Conversations a stopped process left in progress first: ended as failed, then swept like others.
    const now = deps.clock.now();
    const failed = await failStaleConversations(
      deps.db,
      new Date(now.getTime() - 2 * CONVERSATION_HEARTBEAT_STALE_MS),
      now,
    );
    let deleted = 0;
    // Batches of 200 until none is left (a day's worth at most in one run).
    for (let batch = 0; batch < 50; batch += 1) {
      const count = await deleteExpiredConversations(deps, deps.clock.now());
      deleted += count;
      if (count === 0) break;
    }
    return { deleted, failed };
  },
});
