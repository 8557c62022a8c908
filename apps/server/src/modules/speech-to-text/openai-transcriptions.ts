import {
  findSttLanguage,
  OPENAI_STT_MODELS,
  type OpenAiTranscriptionFields,
  type SpeechToTextChunk,
  type SpeechToTextFields,
  type WireTranscript,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { invalid } from '../../platform/errors';
import type { DiskUpload } from '../../platform/multipart';
import { type SttDeps, transcribeNow } from './speech-to-text.service';
import { formatTranscript } from './transcript-formats';
import { chunksOf, singleTranscript } from './transcript-words';

/** OpenAI's `timestamp_granularities[]` as sent (repeated fields arrive joined by commas). */
export function parseGranularities(fields: OpenAiTranscriptionFields): { words: boolean; segments: boolean } {
  const raw = [fields['timestamp_granularities[]'], fields.timestamp_granularities]
    .filter((v): v is string => v !== undefined)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const value of raw)
    if (value !== 'word' && value !== 'segment')
      throw invalid(
        'timestamp_granularities',
        `timestamp_granularities must be word or segment, not "${value}".`,
      );
  // OpenAI's default is segment.
  return { words: raw.includes('word'), segments: raw.length === 0 || raw.includes('segment') };
}

/** The request as the speech-to-text service takes it: the default model, word times, nothing else. */
export function toSttFields(fields: OpenAiTranscriptionFields): SpeechToTextFields {
  return {
    model_id: OPENAI_STT_MODELS[fields.model] ?? fields.model,
    language_code: fields.language,
    tag_audio_events: false,
    timestamps_granularity: 'word',
    diarize: false,
    file_format: 'other',
    webhook: false,
    use_multi_channel: false,
    multichannel_output_style: 'separate',
  };
}

/** OpenAI's `verbose_json`: language by name, duration, text, segments and (when asked) words. */
export function toVerboseJson(
  transcript: WireTranscript,
  granularities: { words: boolean; segments: boolean },
): Record<string, unknown> {
  const chunk = chunksOf(transcript)[0] as SpeechToTextChunk;
  const words = chunk.words.filter((w) => w.type === 'word');
  // The segments of the segmented_json export (speaker changes, silences, length limits).
  const segments = (
    JSON.parse(
      formatTranscript(singleTranscript(transcript), { format: 'segmented_json', include_speakers: false })
        .content,
    ) as { segments: { text: string; start_time: number; end_time: number }[] }
  ).segments.map((s) => ({ text: s.text, start: s.start_time, end: s.end_time }));
  return {
    task: 'transcribe',
    language: (findSttLanguage(chunk.language_code)?.name ?? chunk.language_code).toLowerCase(),
    duration: transcript.audio_duration_secs ?? 0,
    text: chunk.text,
    ...(granularities.segments
      ? {
          segments: segments.map((s, id) => ({
            id,
            seek: 0,
            start: s.start,
            end: s.end,
            text: s.text,
            tokens: [],
            temperature: 0,
            avg_logprob: 0,
            compression_ratio: 0,
            no_speech_prob: 0,
          })),
        }
      : {}),
    ...(granularities.words
      ? { words: words.map((w) => ({ word: w.text, start: w.start, end: w.end })) }
      : {}),
  };
}

/**
 * `POST /v1/audio/transcriptions` for OpenAI-style clients: the same transcription as
 * `POST /v1/speech-to-text` (credits, limits, the transcript kept), answered in OpenAI's formats. `prompt`
 * and `temperature` are accepted and change nothing: the recogniser takes no prompt and is deterministic.
 */
export async function openAiTranscription(
  deps: SttDeps,
  caller: RequestCaller,
  input: {
    fields: OpenAiTranscriptionFields;
    raw: Record<string, string>;
    file: DiskUpload | undefined;
    dir: string;
  },
  signal: AbortSignal,
): Promise<{ body: string | Record<string, unknown>; contentType: string }> {
  if (!input.file) throw invalid('file', 'Field required');
  const granularities = parseGranularities(input.fields);
  const transcript = await transcribeNow(
    deps,
    caller,
    { fields: toSttFields(input.fields), raw: {}, file: input.file, dir: input.dir },
    true,
    signal,
  );
  const text = (chunksOf(transcript)[0] as SpeechToTextChunk).text;
  switch (input.fields.response_format) {
    case 'json':
      return { body: { text }, contentType: 'application/json' };
    case 'text':
      return { body: `${text}\n`, contentType: 'text/plain; charset=utf-8' };
    case 'srt':
      return {
        body: formatTranscript(singleTranscript(transcript), { format: 'srt' }).content,
        contentType: 'text/plain; charset=utf-8',
      };
    case 'vtt':
      return {
        body: formatTranscript(singleTranscript(transcript), { format: 'webvtt' }).content,
        contentType: 'text/vtt; charset=utf-8',
      };
    case 'verbose_json':
      return { body: toVerboseJson(transcript, granularities), contentType: 'application/json' };
  }
}
