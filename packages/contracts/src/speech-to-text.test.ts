import { describe, expect, it } from 'vitest';
import {
  findSttModel,
  OpenAiTranscriptionFields,
  SpeechToTextFields,
  speechToTextCost,
  UpdateTranscriptRequest,
} from './speech-to-text';
import { findSttLanguage, STT_LANGUAGES } from './stt-languages';

const parse = (fields: Record<string, string>) =>
  SpeechToTextFields.safeParse({ model_id: 'scribe_v1', ...fields });
const issue = (fields: Record<string, string>) => {
  const result = parse(fields);
  return result.success ? undefined : result.error.issues[0];
};

describe('speech-to-text request fields', () => {
  it('takes the public API defaults', () => {
    expect(parse({}).data).toEqual({
      model_id: 'scribe_v1',
      tag_audio_events: true,
      timestamps_granularity: 'word',
      diarize: false,
      file_format: 'other',
      webhook: false,
      use_multi_channel: false,
      multichannel_output_style: 'separate',
    });
  });

  it('reads form booleans, numbers and 2- or 3-letter language codes', () => {
    const data = parse({
      diarize: 'true',
      num_speakers: '3',
      language_code: 'ENG',
      tag_audio_events: 'False',
      timestamps_granularity: 'character',
    }).data;
    expect(data).toMatchObject({
      diarize: true,
      num_speakers: 3,
      language_code: 'en',
      tag_audio_events: false,
      timestamps_granularity: 'character',
    });
    expect(parse({ language_code: 'de' }).data?.language_code).toBe('de');
    expect(parse({ language_code: 'deu' }).data?.language_code).toBe('de');
    expect(parse({ language_code: '' }).data?.language_code).toBeUndefined();
  });

  it('refuses what the public API refuses', () => {
    expect(issue({ num_speakers: '33' })?.path).toEqual(['num_speakers']);
    expect(issue({ num_speakers: '0' })?.path).toEqual(['num_speakers']);
    expect(issue({ language_code: 'xx' })?.path).toEqual(['language_code']);
    expect(issue({ timestamps_granularity: 'sentence' })?.path).toEqual(['timestamps_granularity']);
    expect(issue({ diarization_threshold: '0.3' })?.path).toEqual(['diarization_threshold']);
    expect(issue({ diarize: 'true', num_speakers: '2', diarization_threshold: '0.3' })?.path).toEqual([
      'diarization_threshold',
    ]);
    expect(parse({ diarize: 'true', diarization_threshold: '0.3' }).success).toBe(true);
    expect(issue({ webhook_id: 'abc' })?.path).toEqual(['webhook_id']);
    expect(issue({ temperature: '2.5' })?.path).toEqual(['temperature']);
    expect(issue({ seed: '-1' })?.path).toEqual(['seed']);
    expect(issue({ diarize: 'maybe' })?.path).toEqual(['diarize']);
    expect(
      issue({
        use_multi_channel: 'true',
        multichannel_output_style: 'combined',
        timestamps_granularity: 'none',
      })?.path,
    ).toEqual(['multichannel_output_style']);
  });

  it('reads additional_formats as a JSON array of export options', () => {
    const data = parse({
      additional_formats: JSON.stringify([
        { format: 'srt', max_characters_per_line: 42 },
        { format: 'docx' },
      ]),
    }).data;
    expect(data?.additional_formats).toEqual([
      { format: 'srt', max_characters_per_line: 42, include_speakers: true, include_timestamps: true },
      { format: 'docx', include_speakers: true, include_timestamps: true },
    ]);
    // The JS client's own spelling.
    expect(
      parse({ additional_formats: '[{"format":"txt","includeSpeakers":false,"maxCharactersPerLine":30}]' })
        .data?.additional_formats,
    ).toEqual([
      { format: 'txt', include_speakers: false, include_timestamps: true, max_characters_per_line: 30 },
    ]);
    expect(issue({ additional_formats: '[{"format":"mp3"}]' })?.path?.[0]).toBe('additional_formats');
    expect(issue({ additional_formats: 'not json' })?.message).toMatch(/not valid JSON/);
  });

  it('takes webhook_metadata of at most two levels, only with webhook', () => {
    expect(parse({ webhook: 'true', webhook_metadata: '{"job":{"id":7}}' }).data?.webhook_metadata).toEqual({
      job: { id: 7 },
    });
    expect(issue({ webhook: 'true', webhook_metadata: '{"a":{"b":{"c":1}}}' })?.message).toMatch(/2 levels/);
    // 8,000 levels fit in its 16 KB: refused as too deep, not a stack overflow (issue 26 item 9).
    const deep = `{"a":${'['.repeat(8000)}${']'.repeat(8000)}}`;
    expect(issue({ webhook: 'true', webhook_metadata: deep })?.message).toMatch(/2 levels/);
    expect(issue({ webhook: 'true', webhook_metadata: '[1,2]' })?.path?.[0]).toBe('webhook_metadata');
    expect(issue({ webhook_metadata: '{"a":1}' })?.path).toEqual(['webhook_metadata']);
  });
});

describe('speech-to-text models, languages and price', () => {
  it('accepts the public API model ids as the default model', () => {
    for (const id of ['scribe_v1', 'scribe_v2', 'scribe_v1_experimental', 'parla_stt_v1'])
      expect(findSttModel(id)?.model_id).toBe('parla_stt_v1');
    expect(findSttModel('parla_stt_accurate_v1')?.kind).toBe('accurate');
    expect(findSttModel('whisper-1')).toBeUndefined();
  });

  it('lists auto-detection plus about 57 languages, English built in (history/voices §9)', () => {
    expect(STT_LANGUAGES.length).toBeGreaterThanOrEqual(55);
    expect(STT_LANGUAGES.length).toBeLessThanOrEqual(60);
    expect(STT_LANGUAGES.filter((l) => l.builtIn).map((l) => l.iso1)).toEqual(['en']);
    expect(findSttLanguage('fra')?.iso1).toBe('fr');
  });

  it('charges 1 credit per started second per channel, at least 1', () => {
    expect(speechToTextCost(0.1)).toBe(1);
    expect(speechToTextCost(1)).toBe(1);
    expect(speechToTextCost(1.001)).toBe(2);
    expect(speechToTextCost(60)).toBe(60);
    expect(speechToTextCost(10.5, 2)).toBe(22);
  });
});

describe('the other requests', () => {
  it("reads OpenAI's transcription fields", () => {
    expect(OpenAiTranscriptionFields.parse({ model: 'whisper-1' })).toEqual({
      model: 'whisper-1',
      response_format: 'json',
    });
    expect(OpenAiTranscriptionFields.safeParse({ model: 'whisper-1', response_format: 'xml' }).success).toBe(
      false,
    );
    expect(OpenAiTranscriptionFields.parse({ model: 'whisper-1', language: 'en' }).language).toBe('en');
  });

  it('takes speaker names by speaker id', () => {
    expect(UpdateTranscriptRequest.safeParse({ speaker_names: { speaker_0: 'Alice' } }).success).toBe(true);
    expect(UpdateTranscriptRequest.safeParse({ speaker_names: { alice: 'Alice' } }).success).toBe(false);
    expect(UpdateTranscriptRequest.safeParse({ name: '' }).success).toBe(false);
  });
});
