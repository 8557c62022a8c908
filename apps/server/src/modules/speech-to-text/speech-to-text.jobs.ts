import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import { removeDeadScratchDirs } from '../../platform/scratch-dirs';
import {
  abandonTranscription,
  runTranscriptionJob,
  type SttDeps,
  type TranscribeJobPayload,
} from './speech-to-text.service';

/** Attempts in all: a plan whose concurrency slots are all taken waits for the next (2 s, 4 s, … ~4 min). */
const MAX_ATTEMPTS = 8;

/** A background transcription (`webhook=true`, the page's uploads): speech-to-text.service runTranscriptionJob. */
export const transcribeJob = defineJob<TranscribeJobPayload, Omit<SttDeps, 'transcribeJob'>>({
  name: 'speech-to-text.transcribe',
  payload: z.object({ transcriptId: z.string(), workspaceId: z.string() }),
  maxAttempts: MAX_ATTEMPTS,
  backoffBaseMs: 2000,
  async handler(payload, ctx, deps) {
    // Run again after a crash, perhaps by another process of this host: the dead run's scratch folder goes.
    if (ctx.attempt > 1) await removeDeadScratchDirs();
    await runTranscriptionJob({ ...deps, transcribeJob }, payload, {
      signal: ctx.signal,
      lastAttempt: ctx.attempt >= ctx.maxAttempts,
    });
  },
  // The last attempt failed or its process died: the transcript must not stay `processing`.
  onExhausted: (payload, _failure, deps) => abandonTranscription(deps, payload),
});
