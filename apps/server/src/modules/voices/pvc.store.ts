import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type VoiceRow, voiceSamples, voices } from './voices.tables';

/**
 * Moves a sample's separation to pending unless it is pending already; true for the call that moved it
 * (one separation at a time).
 */
export async function claimSeparation(db: Db, sampleId: string): Promise<boolean> {
  const [claimed] = await db
    .update(voiceSamples)
    .set({ speakerSeparation: { status: 'pending', speakers: {}, selected_speaker_ids: [] } })
    .where(
      and(
        eq(voiceSamples.id, sampleId),
        sql`coalesce(${voiceSamples.speakerSeparation}->>'status', '') <> 'pending'`,
      ),
    )
    .returning({ id: voiceSamples.id });
  return claimed !== undefined;
}

/**
 * Queues a voice's training for a model unless it is queued or training already; true for the call
 * that queued it (one training at a time).
 */
export async function claimTraining(db: Db, voiceId: string, modelId: string): Promise<boolean> {
  const [claimed] = await db
    .update(voices)
    .set({ fineTuningState: 'queued', fineTuningProgress: 0, fineTuningModelId: modelId })
    .where(
      and(
        eq(voices.id, voiceId),
        sql`coalesce(${voices.fineTuningState}, '') not in ('queued', 'fine_tuning')`,
      ),
    )
    .returning({ id: voices.id });
  return claimed !== undefined;
}

/** A failed verification attempt counted, with its reason. */
export async function recordVerificationFailure(db: Db, voiceId: string, failure: string): Promise<void> {
  await db
    .update(voices)
    .set({
      verificationAttempts: sql`${voices.verificationAttempts} + 1`,
      verificationFailures: sql`${voices.verificationFailures} || ${JSON.stringify([failure])}::jsonb`,
    })
    .where(eq(voices.id, voiceId));
}

/** A passed verification attempt counted: the voice is verified and its captcha spent. */
export async function recordVerification(
  db: Db,
  voiceId: string,
  safetyControl: VoiceRow['safetyControl'],
): Promise<void> {
  await db
    .update(voices)
    .set({
      isVerified: true,
      requiresVerification: false,
      safetyControl,
      captchaText: null,
      captchaIssuedAt: null,
      verificationAttempts: sql`${voices.verificationAttempts} + 1`,
    })
    .where(eq(voices.id, voiceId));
}

/**
 * Raises a training's progress to `share` (never lowers it): a training taken over after a crash starts
 * its samples again, and its progress stays where the first run had brought it until it passes it.
 */
export async function raiseTrainingProgress(db: Db, voiceId: string, share: number): Promise<void> {
  await db
    .update(voices)
    .set({ fineTuningProgress: sql`greatest(coalesce(${voices.fineTuningProgress}, 0), ${share})` })
    .where(eq(voices.id, voiceId));
}
