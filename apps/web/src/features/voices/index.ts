/** The voices feature's front door for other features. */
export type { VoicePickerProps } from './components/voice-picker';
export { VoicePicker } from './components/voice-picker';
export { languageName } from './voice-labels';
export { voicesOfLanguage } from './voice-picker-rules';
