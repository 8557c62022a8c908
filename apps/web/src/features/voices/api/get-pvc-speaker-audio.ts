import { pvcSpeakerAudioRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `GET …/samples/{sample_id}/speakers/{speaker_id}/audio`: what one speaker says in a sample, as an
 * object URL of its mp3 (the caller revokes it).
 */
export async function getPvcSpeakerAudioUrl(
  voiceId: string,
  sampleId: string,
  speakerId: string,
  signal?: AbortSignal,
): Promise<string> {
  const answer = await apiRequest(pvcSpeakerAudioRoute, {
    params: { voice_id: voiceId, sample_id: sampleId, speaker_id: speakerId },
    signal,
  });
  const bytes = Uint8Array.from(atob(answer.audio_base_64), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: answer.media_type }));
}
