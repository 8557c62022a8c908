/**
 * The text-to-speech feature's front door, for other features: whether a model speaks a voice (Studio's
 * voice pickers offer only those its model speaks, issue 30 review). Its pages import the rest directly.
 */
export { modelSpeaksVoice } from './tts-rules';
