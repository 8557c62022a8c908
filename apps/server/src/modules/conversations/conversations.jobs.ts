import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { defineJob } from '../../platform/jobs/job-definition';
import { type ConversationsDeps, deleteExpiredConversations } from './conversations.service';

/** Conversations past their agent's retention (privacy.retention_days), deleted with their recordings. */
export const conversationRetentionJob = defineJob<
  Record<string, never>,
  ConversationsDeps & { clock: Clock }
>({
  name: 'conversations.retention',
  payload: z.object({}),
  maxAttempts: 3,
  async handler(_payload, _ctx, deps) {
    let deleted = 0;
    // Batches of 200 until none is left (a day's worth at most in one run).
    for (let batch = 0; batch < 50; batch += 1) {
      const count = await deleteExpiredConversations(deps, deps.clock.now());
      deleted += count;
      if (count === 0) break;
    }
    return { deleted };
  },
});
