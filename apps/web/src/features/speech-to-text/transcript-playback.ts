import { buildPath } from '@parla/contracts';
import type { Playback } from '../player';
import { getTranscriptAudioRoute, type TranscriptListItem } from './api/types';

/** A file name of the transcript's audio, safe to save. */
function audioFileName(name: string): string {
  const base = name
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_')
    .replace(/_+/g, '_')
    .slice(0, 80);
  return `${base || 'transcript'}.mp3`;
}

/**
 * A transcript's recording for the bottom player: `GET /v1/speech-to-text/transcripts/{id}/audio`, fetched
 * with the bearer token like history audio. `autoStart` plays it as soon as it is loaded.
 */
export function transcriptPlayback(
  transcript: Pick<TranscriptListItem, 'transcription_id' | 'name' | 'audio_duration_secs'>,
  autoStart: boolean,
): Playback {
  return [
    {
      id: transcript.transcription_id,
      fileName: audioFileName(transcript.name),
      type: 'transcript',
      loaded: true,
      player: {
        title: transcript.name,
        description: 'Transcript recording',
        ...(transcript.audio_duration_secs !== null && {
          duration: Math.round(transcript.audio_duration_secs * 1000),
        }),
      },
      autoStart,
    },
    {
      kind: 'url',
      url: buildPath(getTranscriptAudioRoute.path, { transcription_id: transcript.transcription_id }),
      authenticated: true,
    },
  ];
}
