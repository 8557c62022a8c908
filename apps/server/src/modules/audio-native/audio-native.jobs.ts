import { AUDIO_NATIVE_ANALYTICS_MAX_DAYS } from '@parla/contracts';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { defineJob } from '../../platform/jobs/job-definition';
import { AUDIO_NATIVE_PAGE_WINDOW_DAYS, firstDayOf } from './audio-native.service';
import { deleteAnalyticsBefore } from './audio-native.store';

/**
 * Audio Native's analytics kept only as long as they are shown (decision 25 "Audio Native"): sessions of
 * days before the longest period the analytics answer (`?days=` up to 366), and page loads before the
 * page window (30 days). Every number the analytics page can show is still computed from the session rows
 * themselves, so deleting what no period reaches changes none of them.
 */
export const audioNativeRetentionJob = defineJob<Record<string, never>, { db: Db; clock: Clock }>({
  name: 'audio-native.retention',
  payload: z.object({}),
  maxAttempts: 3,
  async handler(_payload, _ctx, deps) {
    const now = deps.clock.now();
    const sessionsBefore = firstDayOf(now, AUDIO_NATIVE_ANALYTICS_MAX_DAYS);
    const pagesBefore = firstDayOf(now, AUDIO_NATIVE_PAGE_WINDOW_DAYS);
    await deleteAnalyticsBefore(deps.db, sessionsBefore, pagesBefore);
    return { sessionsBefore, pagesBefore };
  },
});
