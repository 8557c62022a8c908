/** The voices module's front door: what other modules may do (issue 26 item 1; the rest is its own). */

export {
  createGeneratedVoice,
  type GeneratedVoiceInput,
  type RemixSource,
  remixSourceOf,
} from './generated-voices.service';
export { descriptionSeed, designBlends, designShift, designsOnKokoro } from './kokoro-blends';
export type { VoiceCaller } from './own-voices.service';
export type { SpeakingVoice } from './speaking-voice';
export {
  premadeSpeaking,
  renditionProfile,
  resolveSpeakingVoice,
  timbreFor,
  timbreShift,
} from './speaking-voice';
export type { VoicePreviewDeps } from './voice-previews';
export { getVoicePreview, previewRendition } from './voice-previews';
export {
  DEFAULT_VOICE_SETTINGS,
  getModel,
  getVoice,
  type ModelAvailability,
  neuralAvailability,
  voiceUsageOf,
  workspaceVoiceIds,
} from './voices.service';
