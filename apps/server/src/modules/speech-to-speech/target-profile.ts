import { analyzeVoice, type VoiceProfile } from '@parla/audio';
import type { PremadeVoice } from '@parla/contracts';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { getVoicePreview, previewRendition, type VoicePreviewDeps } from '../voices';

const profiles = new Map<string, Promise<VoiceProfile>>();

/**
 * What a premade voice sounds like, for speech to speech: its preview (the engine's own speech of the
 * preview sentence, made once and kept in storage) analysed once per process and kept in memory, per
 * rendition as the previews are (Sarah sounds like Kokoro's af_heart where Kokoro is there, like Festival
 * where it is not). A failed analysis is tried again on the next request.
 */
export function targetProfileOf(deps: VoicePreviewDeps, voice: PremadeVoice): Promise<VoiceProfile> {
  const rendition = previewRendition(deps, voice);
  const key = `${voice.voice_id}:${rendition.engine}:${rendition.voice}`;
  const known = profiles.get(key);
  if (known) return known;
  const made = (async () => {
    const mp3 = await getVoicePreview(deps, voice);
    const pcm = await decodeToPcm(mp3, { sampleRate: 16_000, maxSeconds: 60 });
    const profile = analyzeVoice(pcm);
    if (profile.pitch.medianHz === null)
      throw new Error(`The preview of ${voice.name} has no measurable pitch (${profile.pitch.unavailable}).`);
    return profile;
  })();
  profiles.set(key, made);
  made.catch(() => {
    if (profiles.get(key) === made) profiles.delete(key);
  });
  return made;
}
