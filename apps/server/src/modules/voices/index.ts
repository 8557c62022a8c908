/** The voices module's front door: what other modules may use (issue 17; the rest is its own). */

export { seedBuiltInVoices } from './built-in-voices.service';
export type { SpeakingVoice } from './speaking-voice';
export { premadeSpeaking, resolveSpeakingVoice, timbreFor } from './speaking-voice';
export { deleteWorkspaceVoiceFiles } from './voice-files';
export type { VoicePreviewDeps } from './voice-previews';
export { getVoicePreview } from './voice-previews';
export {
  DEFAULT_VOICE_SETTINGS,
  getModel,
  getVoice,
  voiceUsageOf,
  workspaceVoiceIds,
} from './voices.service';
