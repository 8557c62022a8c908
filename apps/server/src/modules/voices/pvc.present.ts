import type { SpeakerSeparation } from '@parla/contracts';
import type { VoiceSampleRow } from './voices.tables';

/** A sample as the PVC calls show it. */
export function toPvcSample(sample: VoiceSampleRow) {
  return {
    sample_id: sample.id,
    file_name: sample.fileName,
    mime_type: sample.mimeType,
    size_bytes: sample.sizeBytes,
    hash: sample.hash,
    duration_secs: sample.durationSecs,
    remove_background_noise: sample.removeBackgroundNoise,
    has_isolated_audio: false,
    has_isolated_audio_preview: false,
    speaker_separation: sample.speakerSeparation ? toSeparation(sample.voiceId, sample) : null,
    trim_start: sample.trimStartMs,
    trim_end: sample.trimEndMs,
  };
}

/** A sample's speaker separation as `…/speakers` shows it. */
export function toSeparation(voiceId: string, sample: VoiceSampleRow): SpeakerSeparation {
  const stored = sample.speakerSeparation;
  if (!stored)
    return {
      voice_id: voiceId,
      sample_id: sample.id,
      status: 'not_started',
      speakers: null,
      selected_speaker_ids: null,
    };
  return {
    voice_id: voiceId,
    sample_id: sample.id,
    status: stored.status,
    speakers:
      stored.status === 'completed'
        ? Object.fromEntries(
            Object.entries(stored.speakers).map(([id, s]) => [
              id,
              { speaker_id: s.speaker_id, duration_secs: s.duration_secs, utterances: s.utterances },
            ]),
          )
        : null,
    selected_speaker_ids: stored.selected_speaker_ids,
  };
}
