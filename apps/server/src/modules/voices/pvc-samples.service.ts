import { type PcmAudio, visualWaveform } from '@parla/audio';
import { PVC_SAMPLE_MAX_BYTES, PVC_SAMPLE_MAX_SECONDS } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { encodeAudio } from '../../platform/media/encode-audio';
import type { UploadedFile } from '../../platform/multipart';
import { analyseSamples, getSample, storeSamples, type VoiceCaller } from './own-voices.service';
import { toPvcSample } from './pvc.present';
import { getPvc, type PvcDeps, WORK_RATE } from './pvc.service';
import { deleteSampleRow, insertSamples, updateSample } from './voices.store';
import type { VoiceSampleRow } from './voices.tables';

/* A professional clone's samples: added, trimmed, their speakers selected, listened to, deleted. */

/** `POST /v1/voices/pvc/{id}/samples`: each file checked by content and measured, then stored. */
export async function addPvcSamples(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  files: readonly UploadedFile[],
  removeNoise: boolean,
) {
  if (files.length === 0) throw invalid('files', 'Upload at least one recording of the voice.');
  const { row } = await getPvc(deps.db, caller, voiceId);
  const analysed = await analyseSamples(deps.denoise, files, removeNoise, {
    maxBytes: PVC_SAMPLE_MAX_BYTES,
    maxSeconds: PVC_SAMPLE_MAX_SECONDS,
  });
  const rows = await storeSamples(deps, caller.workspaceId, row.id, analysed, removeNoise);
  try {
    await insertSamples(deps.db, rows);
  } catch (error) {
    await Promise.all(rows.map((r) => deps.storage.delete(r.storageKey).catch(() => undefined)));
    throw error;
  }
  return rows.map(toPvcSample);
}

/** `POST /v1/voices/pvc/{id}/samples/{sample}`: selected speakers, trim, name, noise removal. */
export async function updatePvcSample(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
  body: {
    remove_background_noise?: boolean | null | undefined;
    selected_speaker_ids?: string[] | null | undefined;
    trim_start_time?: number | null | undefined;
    trim_end_time?: number | null | undefined;
    file_name?: string | null | undefined;
  },
): Promise<{ voice_id: string }> {
  const { row } = await getPvc(db, caller, voiceId);
  const sample = await getSample(db, caller.workspaceId, row.id, sampleId);
  let separation = sample.speakerSeparation;
  if (body.selected_speaker_ids) {
    if (separation?.status !== 'completed')
      throw new AppError('bad_request', 'Separate the speakers of this sample before selecting them.');
    const unknown = body.selected_speaker_ids.find((id) => !separation?.speakers[id]);
    if (unknown) throw invalid('selected_speaker_ids', `The sample has no speaker ${unknown}.`);
    separation = { ...separation, selected_speaker_ids: [...new Set(body.selected_speaker_ids)] };
  }
  const lengthMs = Math.round(sample.durationSecs * 1000);
  const trimStart = body.trim_start_time ?? sample.trimStartMs;
  const trimEnd = body.trim_end_time ?? sample.trimEndMs;
  if ((trimStart ?? 0) >= (trimEnd ?? lengthMs) || (trimEnd ?? 0) > lengthMs)
    throw invalid(
      'trim_end_time',
      `The trim must keep part of the sample (0–${lengthMs} ms, start before end).`,
    );
  await updateSample(db, sample.id, {
    removeBackgroundNoise: body.remove_background_noise ?? sample.removeBackgroundNoise,
    fileName: body.file_name ?? sample.fileName,
    trimStartMs: trimStart,
    trimEndMs: trimEnd,
    speakerSeparation: separation,
  });
  return { voice_id: row.id };
}

/** `DELETE /v1/voices/pvc/{id}/samples/{sample}`. */
export async function deletePvcSample(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
): Promise<void> {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  await deleteSampleRow(deps.db, sample.id);
  await deps.storage.delete(sample.storageKey).catch(() => undefined);
}

/** A stored sample decoded to 16 kHz mono, trimmed as set, denoised when asked. */
export async function decodeSample(
  deps: Pick<PvcDeps, 'storage' | 'denoise'>,
  sample: VoiceSampleRow,
  options: { denoise?: boolean } = {},
): Promise<PcmAudio> {
  const bytes = await deps.storage.get(sample.storageKey);
  if (!bytes) throw notFound('The sample audio');
  // Bounded even when a sample's header understated its length (only the header was checked at upload).
  const pcm = await decodeToPcm(bytes, { sampleRate: WORK_RATE, maxSeconds: PVC_SAMPLE_MAX_SECONDS });
  const from = Math.round(((sample.trimStartMs ?? 0) * WORK_RATE) / 1000);
  const to =
    sample.trimEndMs === null ? pcm.samples.length : Math.round((sample.trimEndMs * WORK_RATE) / 1000);
  const trimmed = { ...pcm, samples: pcm.samples.slice(from, Math.max(from, to)) };
  return (options.denoise ?? sample.removeBackgroundNoise) ? deps.denoise.denoise(trimmed) : trimmed;
}

/** Audio as mp3, base64 (the PVC calls' `audio_base_64`). */
export const mp3Base64 = async (pcm: PcmAudio) =>
  (await encodeAudio(pcm, 'mp3_44100_128')).toString('base64');

/** `GET …/samples/{sample}/audio`: the sample (trimmed) as mp3, base64. */
export async function pvcSampleAudio(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
  removeNoise: boolean | undefined,
) {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  const pcm = await decodeSample(deps, sample, {
    denoise: removeNoise ?? sample.removeBackgroundNoise,
  });
  return {
    audio_base_64: await mp3Base64(pcm),
    voice_id: row.id,
    sample_id: sample.id,
    media_type: 'audio/mpeg',
    duration_secs: pcm.samples.length / pcm.sampleRate,
  };
}

/** `GET …/samples/{sample}/waveform`. */
export async function pvcSampleWaveform(
  deps: Pick<PvcDeps, 'db' | 'storage' | 'denoise'>,
  caller: VoiceCaller,
  voiceId: string,
  sampleId: string,
) {
  const { row } = await getPvc(deps.db, caller, voiceId);
  const sample = await getSample(deps.db, caller.workspaceId, row.id, sampleId);
  return {
    sample_id: sample.id,
    visual_waveform: visualWaveform(await decodeSample(deps, sample, { denoise: false })),
  };
}
