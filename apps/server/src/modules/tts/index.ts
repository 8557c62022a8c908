/** The tts module's front door: what other modules may do (issue 26 item 1; the rest is its own). */

// Where a first sentence is cut so its first audio comes sooner (the TTS stream and conversations).
export { firstPieceLength } from './first-piece';
// Whole generations, metered: what agents, dubbing and studio call.
export type { SpeechInput } from './speech.service';
export { renderSpeech, speechTextProblem, synthesize, synthesizeStream } from './speech.service';
export type { SpeakOptions, SpeechRequest, SpeechResult } from './speech-pipeline';
// The parts a variant of text to speech composes (dialogue: many texts, one budget, one history item).
export { StreamedAudio, streamEncodingBoundMs } from './streamed-audio';
export type { SpeechPlan, TtsCaller, TtsDeps, TtsPlan, TtsResult, TtsStream } from './tts.service';
export { creditCost, prepareSpeech, recordHistory, toClientError, workOf } from './tts.service';
export { ttsDepsOf, withGenerationHeaders } from './tts-http';
