/** The speech-to-text module's front door: what other modules may do (issue 26 item 1; the rest is its own). */

// A live audio chunk's base64 PCM or μ-law, checked (the agents' conversation socket takes the same).
export { AudioChunkError, decodeAudioChunk } from './realtime-audio';
// A media URL fetched safely (operator-allowed hosts, no private addresses, redirects checked): dubbing's source_url.
export type { SourceUrlPolicy } from './source-url';
export { downloadSourceUrl } from './source-url';
export type { TranscribeInput, TranscriptionDeps } from './transcription.service';
export { alignText, sttDepsOf, transcribe } from './transcription.service';
export type {
  PreparedTranscriptionStream,
  TranscriptionListener,
  TranscriptionStream,
  TranscriptionStreamDeps,
  TranscriptionStreamInput,
  TranscriptionStreamOptions,
} from './transcription-stream';
export {
  openTranscriptionStream,
  prepareTranscriptionStream,
  TranscriptionError,
  transcriptionStreamDepsOf,
} from './transcription-stream';
