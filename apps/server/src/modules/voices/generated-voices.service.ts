import type { VoiceProfile } from '@parla/audio';
import { PREMADE_VOICES, type PremadeVoice, type VoiceResponse, type VoiceSettings } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { voiceAdded } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { getOwnVoice, takeVoiceSlot, type VoiceCaller } from './own-voices.service';
import { reuseProblem } from './speaking-voice';
import { toOwnVoiceResponse } from './voices.present';
import { insertVoice } from './voices.store';

/*
 * What voice design (its own module, above text to speech) asks of the voices: where a remix starts, and a
 * designed voice saved as one of the workspace's own.
 */

/** Where a remix of an own voice starts: its premade base, its profile, its pace and its Kokoro blend. */
export interface RemixSource {
  base: PremadeVoice;
  profile: VoiceProfile;
  pace: number;
  /** Its Kokoro blend, which the remix keeps (moving its profile); null for a classic voice. */
  kokoroVoice: string | null;
}

/** The caller's own voice as a remix starts from it, or the reason it cannot be remixed (history/voices §7). */
export async function remixSourceOf(db: Db, caller: VoiceCaller, voiceId: string): Promise<RemixSource> {
  const { row } = await getOwnVoice(db, caller, voiceId);
  // A copy from the library stays its owner's: remixing it would make it an independent voice.
  if (row.originalVoiceId !== null)
    throw new AppError('bad_request', 'A voice added from the library cannot be remixed.');
  const problem = await reuseProblem(db, row);
  if (problem) throw new AppError('voice_unusable', problem);
  const base = PREMADE_VOICES.find((v) => v.voice_id === row.baseVoiceId);
  if (!base || !row.profile)
    throw new AppError('bad_request', 'This voice cannot be remixed until it is trained.');
  return { base, profile: row.profile, pace: row.settings?.speed ?? 1, kokoroVoice: row.kokoroVoice };
}

/** A designed voice to keep: a premade base moved to a profile, with its labels and settings. */
export interface GeneratedVoiceInput {
  name: string;
  description: string;
  labels: Record<string, string>;
  language: string;
  baseVoiceId: string;
  profile: VoiceProfile;
  settings: VoiceSettings;
  /** The Kokoro blend its previews were spoken with (a design on Kokoro), or null (a classic design). */
  kokoroVoice: string | null;
}

/**
 * Saves a designed voice as the workspace's own (`generated`: it takes a voice slot and counts as an add,
 * accounts §9) and tells who cares (`voice.added`: the checklist's design_voice).
 */
export async function createGeneratedVoice(
  deps: { db: Db; events: EventBus; publicUrl: string },
  caller: VoiceCaller,
  input: GeneratedVoiceInput,
): Promise<VoiceResponse> {
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await takeVoiceSlot(tx, caller.workspaceId, 'add');
    await insertVoice(tx, {
      id,
      workspaceId: caller.workspaceId,
      ownerUserId: caller.userId,
      name: input.name,
      description: input.description,
      labels: input.labels,
      category: 'generated',
      language: input.language,
      baseVoiceId: input.baseVoiceId,
      profile: input.profile,
      settings: input.settings,
      kokoroVoice: input.kokoroVoice,
    });
  });
  await deps.events.publish(voiceAdded, {
    userId: caller.userId,
    workspaceId: caller.workspaceId,
    voiceId: id,
    source: 'design',
  });
  const { row, samples } = await getOwnVoice(deps.db, caller, id);
  return toOwnVoiceResponse(row, samples, deps.publicUrl);
}
