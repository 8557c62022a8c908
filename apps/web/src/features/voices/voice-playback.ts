import { buildPath, voiceSampleAudioRoute } from '@parla/contracts';
import type { Playback } from '../player';

/** The audio file name of a voice's preview or sample, safe to save. */
function audioFileName(...parts: string[]): string {
  const base = parts
    .join('-')
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_')
    .replace(/_+/g, '_')
    .slice(0, 80);
  return `${base || 'voice'}.mp3`;
}

/** What a preview needs of a voice: own and premade voices (`VoiceResponse`) and library voices alike. */
export interface PreviewableVoice {
  voice_id: string;
  name: string;
  description?: string | null | undefined;
  preview_url?: string | null | undefined;
  language?: string | null | undefined;
}

/**
 * A voice's preview for the bottom player: its `preview_url`, an mp3 anyone can fetch, played at once.
 * Null when the voice has no preview yet.
 */
export function voicePreviewPlayback(voice: PreviewableVoice): Playback | null {
  if (!voice.preview_url) return null;
  return [
    {
      id: voice.voice_id,
      fileName: audioFileName(voice.name, 'preview'),
      type: 'voicePreview',
      loaded: true,
      player: {
        title: `${voice.name} · preview`,
        description: voice.description ?? undefined,
        voice_id: voice.voice_id,
        voice_name: voice.name,
        language: voice.language ?? undefined,
      },
      autoStart: true,
    },
    { kind: 'url', url: voice.preview_url },
  ];
}

/** The player id of a sample: a voice may hold several, and its preview uses the voice id. */
export function samplePlayerId(voiceId: string, sampleId: string): string {
  return `${voiceId}/samples/${sampleId}`;
}

/**
 * One of an own voice's samples for the bottom player: `GET /v1/voices/{id}/samples/{sample_id}/audio`,
 * fetched with the bearer token like history audio.
 */
export function voiceSamplePlayback(
  voice: { voice_id: string; name: string },
  sample: { sample_id: string; file_name: string; duration_secs: number },
): Playback {
  return [
    {
      id: samplePlayerId(voice.voice_id, sample.sample_id),
      fileName: sample.file_name,
      type: 'voicePreview',
      loaded: true,
      player: {
        title: `${voice.name} · ${sample.file_name}`,
        voice_id: voice.voice_id,
        voice_name: voice.name,
        duration: Math.round(sample.duration_secs * 1000),
      },
      autoStart: true,
    },
    {
      kind: 'url',
      url: buildPath(voiceSampleAudioRoute.path, { voice_id: voice.voice_id, sample_id: sample.sample_id }),
      authenticated: true,
    },
  ];
}

/**
 * A voice design preview for the bottom player: its audio arrives in the design answer as base64, played
 * from a data URL (nothing to fetch, nothing to release).
 */
export function designPreviewPlayback(
  preview: { generated_voice_id: string; audio_base_64: string; media_type: string; duration_secs: number },
  { title, text }: { title: string; text: string },
): Playback {
  const mediaType = preview.media_type.startsWith('audio/') ? preview.media_type : 'audio/mpeg';
  return [
    {
      id: preview.generated_voice_id,
      fileName: audioFileName(title),
      type: 'voicePreview',
      loaded: true,
      player: { title, description: text, duration: Math.round(preview.duration_secs * 1000) },
      autoStart: true,
    },
    { kind: 'url', url: `data:${mediaType};base64,${preview.audio_base_64}` },
  ];
}
