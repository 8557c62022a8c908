import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUDIO_NAME_MAX_LENGTH,
  DOWNLOAD_NAME_MAX_LENGTH,
  downloadExtension,
  type HistoryNamingItem,
  historyItemFileName,
  historyVoiceName,
  historyZipFileName,
  modeSuffix,
  sanitizeAudioName,
  sanitizeDownloadName,
  withExtension,
} from './history-naming';

const item: HistoryNamingItem = {
  name: 'Rachel',
  date_unix: Date.UTC(2026, 10, 24, 5, 30, 7) / 1000,
  category: 'premade',
  model_id: 'eleven_multilingual_v2',
  voice_settings: { speed: 1, stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true },
};

describe('download naming (history/voices §3, §5)', () => {
  it('gives each voice category its mode suffix', () => {
    expect(modeSuffix('generated')).toBe('gen');
    expect(modeSuffix('professional')).toBe('pvc');
    expect(modeSuffix('premade')).toBe('pre');
    expect(modeSuffix('cloned')).toBe('ivc');
  });

  it('maps the download format to wav, zip or otherwise mp3', () => {
    expect(downloadExtension('wav')).toBe('wav');
    expect(downloadExtension('zip')).toBe('zip');
    expect(downloadExtension('default')).toBe('mp3');
    expect(downloadExtension(undefined)).toBe('mp3');
  });

  it('replaces an existing extension, or adds one', () => {
    expect(withExtension('take.mp3', 'wav')).toBe('take.wav');
    expect(withExtension('take', 'wav')).toBe('take.wav');
    expect(withExtension('my.take.mp3', 'zip')).toBe('my.take.zip');
    expect(withExtension('.env', 'mp3')).toBe('.env.mp3');
  });

  it('keeps word characters, spaces (as underscores), dots and hyphens only', () => {
    expect(sanitizeDownloadName('Hello, world! (take 2).mp3')).toBe('Hello_world_take_2.mp3');
    expect(sanitizeDownloadName('a/b\\c:d*e?f"g<h>i|j')).toBe('abcdefghij');
  });

  it('keeps letters of every script: "Lucía" is not "Luca" (issue 26 item 7)', () => {
    expect(sanitizeDownloadName('Lucía take.mp3')).toBe('Lucía_take.mp3');
    expect(sanitizeDownloadName('Интервью №1 — 東京.txt')).toBe('Интервью_1__東京.txt');
    // A letter written as a base and a combining accent keeps its accent.
    expect(sanitizeDownloadName('Luci\u0301a.mp3')).toBe('Luci\u0301a.mp3');
    expect(historyItemFileName({ ...item, name: 'Lucía' }, 'mp3')).toContain('_Lucía_pre_');
  });

  it('cuts a long name without splitting a letter written as two UTF-16 units', () => {
    const name = sanitizeDownloadName(`${'x'.repeat(250)}${'𝒜'.repeat(10)}.wav`);
    expect(name.length).toBeLessThanOrEqual(DOWNLOAD_NAME_MAX_LENGTH);
    expect(name.endsWith('.wav')).toBe(true);
    expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('cuts a long download name to 255 characters, keeping the extension', () => {
    const name = sanitizeDownloadName(`${'x'.repeat(400)}.wav`);
    expect(name).toHaveLength(DOWNLOAD_NAME_MAX_LENGTH);
    expect(name.endsWith('.wav')).toBe(true);
  });

  it('removes forbidden file name characters from an audio name and cuts it to 20', () => {
    expect(sanitizeAudioName('My: "voice"/take?')).toBe('My voicetake');
    expect(sanitizeAudioName('A very long voice name indeed')).toBe('A very long voice na');
    expect(Array.from(sanitizeAudioName('🎙️'.repeat(30))).length).toBeLessThanOrEqual(AUDIO_NAME_MAX_LENGTH);
  });

  it('names an item with the brand, date, voice, mode, settings and model', () => {
    expect(historyItemFileName(item, 'mp3')).toBe(
      'Parla_2026-11-24T05_30_07_Rachel_pre_sp100_s50_sb75_se0_b_eleven_multilingual_v2.mp3',
    );
    expect(historyItemFileName({ ...item, category: 'cloned', isbn_number: '978-3-16' }, 'wav')).toBe(
      '978-3-16_Parla_2026-11-24T05_30_07_Rachel_ivc_sp100_s50_sb75_se0_b_eleven_multilingual_v2.wav',
    );
    expect(historyZipFileName(item.date_unix)).toBe('Parla_history_2026-11-24T05_30_07.zip');
  });

  it('always gives a safe name of at most 255 characters with the extension asked for', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.constantFrom('generated', 'professional', 'premade', 'cloned' as const),
        fc.string({ maxLength: 300 }),
        fc.integer({ min: 0, max: 4_102_444_800 }),
        fc.constantFrom('mp3', 'wav', 'zip', 'opus'),
        (name, category, modelId, dateUnix, extension) => {
          const file = historyItemFileName(
            { ...item, name, category, model_id: modelId, date_unix: dateUnix },
            extension,
          );
          expect(file.length).toBeLessThanOrEqual(DOWNLOAD_NAME_MAX_LENGTH);
          expect(file).toMatch(/^[\p{L}\p{M}\p{N}_.-]+$/u);
          expect(file.endsWith(`.${extension}`)).toBe(true);
          expect(file).toContain(`_${modeSuffix(category)}`);
        },
      ),
    );
  });

  it('sanitising is idempotent and never lengthens a name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (name) => {
        const once = sanitizeDownloadName(name);
        expect(sanitizeDownloadName(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(Math.min(name.length, DOWNLOAD_NAME_MAX_LENGTH));
        const audio = sanitizeAudioName(name);
        expect(sanitizeAudioName(audio)).toBe(audio);
        expect(audio).not.toMatch(/[<>:"/\\|?*]/);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), fc.constantFrom('mp3', 'wav', 'zip'), (name, ext) => {
        const named = withExtension(name, ext);
        expect(named.endsWith(`.${ext}`)).toBe(true);
        expect(withExtension(named, ext)).toBe(named);
      }),
    );
  });
});

describe('historyVoiceName (issue 18 item 8)', () => {
  it('names every voice of a dialogue once, in the order they first speak', () => {
    const dialogue = [
      { voice_name: 'Sarah' },
      { voice_name: 'Adam' },
      { voice_name: 'Sarah' },
      { voice_name: ' Chris ' },
    ];
    expect(historyVoiceName({ voice_name: 'Sarah', dialogue })).toBe('Sarah, Adam, Chris');
  });

  it('is the voice name of any other item', () => {
    expect(historyVoiceName({ voice_name: 'Rachel', dialogue: null })).toBe('Rachel');
    expect(historyVoiceName({ voice_name: 'Rachel' })).toBe('Rachel');
    expect(historyVoiceName({ voice_name: 'Rachel', dialogue: [{ voice_name: '  ' }] })).toBe('Rachel');
  });

  it("gives a dialogue's download name all its voices, within the audio name's length", () => {
    const name = historyVoiceName({
      voice_name: 'Sarah',
      dialogue: [{ voice_name: 'Sarah' }, { voice_name: 'Adam' }],
    });
    const file = historyItemFileName(
      { name, date_unix: 0, category: 'premade', model_id: 'parla_v1', voice_settings: {} },
      'mp3',
    );
    expect(file).toBe('Parla_1970-01-01T00_00_00_Sarah_Adam_pre_parla_v1.mp3');
  });
});
