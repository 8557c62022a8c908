/** The tts module's front door: what other modules may use (issue 17; the rest is its own). */
export { StreamedAudio, streamEncodingBoundMs } from './streamed-audio';
export type { SpeechPlan, TtsCaller, TtsDeps, TtsPlan } from './tts.service';
export { creditCost, prepareSpeech, recordHistory, toClientError, workOf } from './tts.service';
export { ttsDepsOf, withGenerationHeaders } from './tts-http';
