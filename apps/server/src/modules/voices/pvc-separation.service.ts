import { type PcmAudio, separateSpeakers } from '@parla/audio';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { getSample, type VoiceCaller } from './own-voices.service';
import { toSeparation } from './pvc.present';
import { getPvc, type PvcDeps, type PvcJobPayload } from './pvc.service';
import { claimSeparation } from './pvc.store';
import { decodeSample, mp3Base64 } from './pvc-samples.service';
import { findWorkspaceSample, updateSample } from './voices.store';
import type { StoredSeparation } from './voices.tables';

/*
 * Speaker separation of a professional clone's sample (VAD + clustering, a job): the speakers found, the
 * one who speaks most selected, and what each of them says.
 */

/** `GET …/samples/{sample}/speakers`. */
export async function pvcSpeakers(db: Db, caller: VoiceCaller, voiceId: string, sampleId: string) {
  const { row } = await getPvc(db, caller, voiceId);
  return toSeparation(row.id, await getSample(db, caller.workspaceId, row.id, sampleId));
}

/** `POST …/samples/{sample}/separate-speakers`: the job starts; `…/speakers` says when it is done. */
export async function startSeparation(
  deps: PvcDeps,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
): Promise<void> {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  // One separation at a time: only the call that moves the sample to pending starts the job.
  if (!(await claimSeparation(deps.db, sample.id))) return;
  try {
    await deps.queue.enqueue(
      deps.separateJob,
      { workspaceId: caller.workspaceId, voiceId: row.id, sampleId: sample.id },
      { workspaceId: caller.workspaceId },
    );
  } catch (error) {
    await updateSample(deps.db, sample.id, { speakerSeparation: sample.speakerSeparation });
    throw error;
  }
}

/** The separation job: the speakers of the sample, the one who speaks most selected. */
export async function runSeparation(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  payload: PvcJobPayload,
): Promise<void> {
  const sample = await findWorkspaceSample(deps.db, payload.workspaceId, payload.sampleId ?? '');
  if (!sample) return; // deleted since
  try {
    const speakers = separateSpeakers(await decodeSample(deps, sample, { denoise: false }));
    const stored: StoredSeparation = {
      status: 'completed',
      speakers: Object.fromEntries(
        speakers.map((s) => [
          s.speakerId,
          {
            speaker_id: s.speakerId,
            duration_secs: s.durationSecs,
            utterances: s.utterances,
            profile: s.profile,
          },
        ]),
      ),
      selected_speaker_ids: speakers.length > 0 ? [speakers[0]?.speakerId as string] : [],
    };
    await updateSample(deps.db, sample.id, { speakerSeparation: stored });
  } catch (error) {
    await updateSample(deps.db, sample.id, {
      speakerSeparation: { status: 'failed', speakers: {}, selected_speaker_ids: [] },
    });
    throw error;
  }
}

/** The parts of a decoded sample its selected speakers speak (all of it when not separated). */
export function selectedSpeech(pcm: PcmAudio, separation: StoredSeparation | null): PcmAudio {
  if (separation?.status !== 'completed' || separation.selected_speaker_ids.length === 0) return pcm;
  const utterances = separation.selected_speaker_ids
    .flatMap((id) => separation.speakers[id]?.utterances ?? [])
    .sort((a, b) => a.start - b.start);
  const parts = utterances.map((u) =>
    pcm.samples.subarray(Math.floor(u.start * pcm.sampleRate), Math.ceil(u.end * pcm.sampleRate)),
  );
  const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { ...pcm, samples };
}

/** `GET …/speakers/{speaker}/audio`: what one speaker says in the sample, as mp3, base64. */
export async function pvcSpeakerAudio(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
  speakerId: string,
) {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  const separation = sample.speakerSeparation;
  if (separation?.status !== 'completed' || !separation.speakers[speakerId]) throw notFound('The speaker');
  const pcm = selectedSpeech(await decodeSample(deps, sample, { denoise: false }), {
    ...separation,
    selected_speaker_ids: [speakerId],
  });
  return {
    audio_base_64: await mp3Base64(pcm),
    media_type: 'audio/mpeg',
    duration_secs: pcm.samples.length / pcm.sampleRate,
  };
}
