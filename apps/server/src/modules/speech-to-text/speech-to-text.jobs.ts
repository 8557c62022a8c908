import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import { removeDeadScratchDirs } from '../../platform/scratch-dirs';
import { runTranscriptionJob, type SttDeps, type TranscribeJobPayload } from './speech-to-text.service';

/**
 * Set by the process: what the transcription job uses (the worker runs jobs with payloads only). The
 * module's routes provide it, so a process serving them (`--role=all`) transcribes; a `--role=worker`
 * process needs its entry (main.ts) to provide it as well.
 */
let jobDeps: Omit<SttDeps, 'transcribeJob'> | undefined;
export function provideSttJobDeps(deps: Omit<SttDeps, 'transcribeJob'>): void {
  jobDeps = deps;
}

/** Attempts in all: a plan whose concurrency slots are all taken waits for the next (2 s, 4 s, … ~4 min). */
const MAX_ATTEMPTS = 8;

/** A background transcription (`webhook=true`, the page's uploads): speech-to-text.service runTranscriptionJob. */
export const transcribeJob = defineJob<TranscribeJobPayload>({
  name: 'speech-to-text.transcribe',
  payload: z.object({ transcriptId: z.string(), workspaceId: z.string() }),
  maxAttempts: MAX_ATTEMPTS,
  backoffBaseMs: 2000,
  async handler(payload, ctx) {
    if (!jobDeps) throw new Error('a transcription job ran before the process provided its dependencies');
    // Run again after a crash, perhaps by another process of this host: the dead run's scratch folder goes.
    if (ctx.attempt > 1) await removeDeadScratchDirs();
    await runTranscriptionJob({ ...jobDeps, transcribeJob }, payload, {
      signal: ctx.signal,
      lastAttempt: ctx.attempt >= ctx.maxAttempts,
    });
  },
});
