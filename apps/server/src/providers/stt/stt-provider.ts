import { AppError } from '../../platform/errors';

/**
 * Speech to text, as the modules see it. The embedded default is Moonshine (neural, English) run in the
 * engine children with a voice-activity split for long audio (moonshine-stt.ts); an OpenAI-compatible
 * transcription server (STT_SERVER_URL) adds the languages Moonshine does not know.
 */

/**
 * Which recogniser: the embedded fast and accurate Moonshine models (English), the embedded multilingual
 * Whisper base (issue 29), or the operator's server. The fast model hears a telephone-rate source (8 kHz
 * or less) with the accurate recogniser (recogniserSize).
 */
export type SttModelKind = 'fast' | 'accurate' | 'multilingual' | 'external';

/** A word heard, with its time in seconds from the start of the audio. */
export interface HeardWord {
  /** As the recogniser wrote it, with the punctuation attached to it ("today," "$25"). */
  text: string;
  start: number;
  end: number;
  /** Per-character times, when asked for (`characters`), in order, covering the word's text. */
  characters?: { text: string; start: number; end: number }[];
}

/** One stretch of speech between pauses (a voice-activity segment), with its words. */
export interface HeardSegment {
  start: number;
  end: number;
  text: string;
  /** Its words in order: empty when timestamps were not asked for (`words: false`). */
  words: HeardWord[];
  /** `speaker_0`, `speaker_1`, … when diarization was asked for. */
  speaker?: string;
}

/** A non-speech sound found in the audio (only what a detector really found). */
export interface HeardEvent {
  label: string;
  start: number;
  end: number;
}

export interface TranscribeFileRequest {
  /** A media file on disk (any audio or video ffmpeg decodes). */
  file: string;
  model: SttModelKind;
  /**
   * ISO 639-1 or 639-3 code; none to detect (the multilingual model and the server detect it; the
   * English models know English only).
   */
  language?: string;
  /** 0-based: transcribe only this channel; none to mix all channels down. */
  channel?: number;
  /** Word times (and character times with `characters`): costs an alignment pass per segment. */
  timestamps: 'none' | 'word' | 'character';
  /** Cluster the segments by voice. `numSpeakers` caps the count; `threshold` is the merge distance. */
  diarize?: { numSpeakers?: number; threshold?: number };
  /** Look for non-speech sounds (reported only where found). */
  audioEvents?: boolean;
  /** Whose work it is (the workspace): engine time is shared fairly between tenants. */
  tenant: string;
  signal?: AbortSignal;
  /** 0..1 as the work goes. */
  onProgress?(fraction: number): void;
}

export interface FileTranscription {
  /** ISO 639-3 ("eng"), as the public API answers. */
  languageCode: string;
  languageProbability: number;
  durationSecs: number;
  channels: number;
  segments: HeardSegment[];
  events: HeardEvent[];
}

export interface AlignRequest {
  file: string;
  text: string;
  tenant: string;
  signal?: AbortSignal;
}

/** Forced alignment: where each word and character of a known text is in the audio. */
export interface TextAlignment {
  characters: { text: string; start: number; end: number }[];
  words: { text: string; start: number; end: number; loss: number }[];
  /** Mean of the words' losses (0 a perfect match). */
  loss: number;
}

/** Speech spans of a growing 16 kHz mono s16le file a realtime session writes, recognised. */
export interface RecogniseSpansRequest {
  /** The session's raw file (16 kHz mono s16le); spans in samples, within what is written already. */
  file: string;
  model: SttModelKind;
  spans: { start: number; end: number }[];
  /** Word times (an alignment pass per span), in seconds from the file's start. */
  timestamps: 'none' | 'word';
  language?: string;
  tenant: string;
  signal?: AbortSignal;
}

/** 16 kHz: what the recogniser and the voice-activity model take. */
export const STT_SAMPLE_RATE = 16_000;

/** What a session's voice activity is tuned by (the realtime query's VAD parameters). */
export interface RealtimeVadConfig {
  /** Speech probability above which a window is speech (`vad_threshold`). */
  threshold: number;
  minSpeechSecs: number;
  minSilenceSecs: number;
}

/** Speech found so far: segments that ended (absolute samples from the session's start), and now. */
export interface RealtimeVadUpdate {
  segments: { start: number; end: number }[];
  /** Speech is going on at the end of the audio fed so far. */
  speaking: boolean;
  /** Samples fed so far (the VAD's own clock). */
  fed: number;
}

/** One session's voice activity: feed it the session's 16 kHz audio in order. */
export interface RealtimeVoiceActivity {
  /** Feeds the next samples (16 kHz); resolves with the speech segments that ended and whether speech goes on. */
  accept(samples: Int16Array): Promise<RealtimeVadUpdate>;
  close(): void;
}

// What an aligner takes (`POST /v1/forced-alignment`): every aligner refuses the rest alike.

/** The longest recording aligned: 10 minutes. */
export const MAX_ALIGNMENT_SECONDS = 600;
/** The most words aligned (about 25 minutes of speech at a usual pace: every 10-minute text fits). */
export const MAX_ALIGNMENT_WORDS = 5_000;
/**
 * Refuses what the aligner does not take, with the public API's 422 shape: no words, more than
 * MAX_ALIGNMENT_WORDS, or more than MAX_ALIGNMENT_SECONDS of audio. The route checks this before the
 * engine's work; alignTextToAudio checks it again.
 */
export function checkAlignmentLimits(durationSecs: number, text: string): void {
  const count = text.match(/\S+/g)?.length ?? 0;
  if (count === 0) throw alignmentRefusal('text', 'The text has no words to align.');
  if (count > MAX_ALIGNMENT_WORDS)
    throw alignmentRefusal(
      'text',
      `The text has ${count} words; at most ${MAX_ALIGNMENT_WORDS} can be aligned.`,
    );
  if (durationSecs > MAX_ALIGNMENT_SECONDS)
    throw alignmentRefusal(
      'file',
      `The audio lasts ${Math.round(durationSecs)} s; at most ${MAX_ALIGNMENT_SECONDS / 60} minutes can be aligned.`,
    );
}

/**
 * The refusal for audio in which voice activity finds no speech (issue 26 item 9): a warp places every
 * word of any text somewhere in any sound, so an alignment to silence or noise would be invented.
 */
export function noSpeechToAlign(): AppError {
  return alignmentRefusal(
    'file',
    'The audio holds no speech to align the text to (silence or other sounds only). Nothing was charged.',
  );
}

function alignmentRefusal(field: 'text' | 'file', message: string): AppError {
  return new AppError('invalid_request', message, {
    errors: [{ loc: ['body', field], msg: message, type: 'value_error' }],
  });
}

/** What realtime transcription (issue 20) needs of the recogniser. */
export interface RealtimeRecogniser {
  /** Each span's text and words, in order (the recogniser never runs on the server's event loop). */
  recogniseSpans(request: RecogniseSpansRequest): Promise<{ text: string; words: HeardWord[] }[]>;
  /** A session's incremental voice activity (realtime-vad.ts). */
  openVoiceActivity(config: RealtimeVadConfig): Promise<RealtimeVoiceActivity>;
}

export interface SttProvider {
  /** Live transcription; absent where the provider cannot transcribe as audio arrives. */
  readonly realtime?: RealtimeRecogniser;
  /** The languages a model transcribes (ISO 639-1); empty when the model is not available here. */
  languages(model: SttModelKind): readonly string[];
  transcribeFile(request: TranscribeFileRequest): Promise<FileTranscription>;
  align(request: AlignRequest): Promise<TextAlignment>;
  /**
   * Short mono speech to the words heard, lower case, space-separated (no punctuation promised: compare
   * with `words`). The professional-clone captcha and the engines' round trips use it. Rejects when the
   * recogniser fails or runs past `timeoutMs`.
   */
  transcribe(
    audio: { sampleRate: number; samples: Int16Array },
    options?: { timeoutMs?: number },
  ): Promise<string>;
}
