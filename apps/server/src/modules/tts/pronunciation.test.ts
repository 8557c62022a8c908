import type { PronunciationRule } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import type {
  EngineSynthesisRequest,
  EngineSynthesisResult,
  TtsProvider,
} from '../../providers/tts/tts-provider';
import { matchRules, phonemeSpansOf, spansWithin } from './pronunciation';
import {
  normalizeFor,
  pronunciationGrowthProblem,
  type SpeechRequest,
  synthesizeSpeech,
} from './speech-pipeline';

/* Issue 30 item 1: pronunciation-dictionary rules matched and applied by the speech pipeline. */

const alias = (string_to_replace: string, to: string, more: Partial<PronunciationRule> = {}) =>
  ({ type: 'alias', string_to_replace, alias: to, ...more }) as PronunciationRule;
const phoneme = (string_to_replace: string, ph: string, more: Partial<PronunciationRule> = {}) =>
  ({ type: 'phoneme', string_to_replace, phoneme: ph, alphabet: 'ipa', ...more }) as PronunciationRule;

const matched = (text: string, rules: PronunciationRule[]) =>
  matchRules(text, rules).map((m) => [
    text.slice(m.start, m.end),
    m.rule.type === 'alias' ? m.rule.alias : '',
  ]);

describe('matching rules', () => {
  it('is case-insensitive unless the rule is case-sensitive', () => {
    expect(matched('UN, un and Un.', [alias('UN', 'United Nations')])).toEqual([
      ['UN', 'United Nations'],
      ['un', 'United Nations'],
      ['Un', 'United Nations'],
    ]);
    expect(matched('UN, un and Un.', [alias('UN', 'United Nations', { case_sensitive: true })])).toEqual([
      ['UN', 'United Nations'],
    ]);
  });

  it('matches whole words unless word_boundaries is false', () => {
    expect(matched('The UN funds UNICEF.', [alias('UN', 'U N')])).toEqual([['UN', 'U N']]);
    expect(matched('The UN funds UNICEF.', [alias('UN', 'U N', { word_boundaries: false })])).toHaveLength(3);
    // A string ending in a mark is bounded only where it has a word character.
    expect(matched('I code C++ daily', [alias('C++', 'C plus plus')])).toEqual([['C++', 'C plus plus']]);
  });

  it('takes the longest match at a position, then goes on after it', () => {
    const rules = [alias('New', 'Gnu'), alias('New York', 'Big Apple')];
    expect(matched('New York is new.', rules)).toEqual([
      ['New York', 'Big Apple'],
      ['new', 'Gnu'],
    ]);
  });

  it('gives a span to the rule named first, and resolves overlaps left to right', () => {
    expect(matched('tomato', [alias('tomato', 'first'), alias('Tomato', 'second')])).toEqual([
      ['tomato', 'first'],
    ]);
    expect(
      matched('ab cd ef', [
        alias('cd ef', 'right', { word_boundaries: false }),
        alias('ab cd', 'left', { word_boundaries: false }),
      ]),
    ).toEqual([['ab cd', 'left']]);
  });

  it('checks word boundaries on whole characters: accented letters, marks, other scripts and astral letters', () => {
    const un = [alias('UN', 'U N')];
    expect(matched('UNé UN̈ ÉUN UN', un)).toEqual([['UN', 'U N']]);
    // 𝐀 (U+1D400) is a letter of two UTF-16 units on each side; 😀 is not a letter.
    expect(matched('𝐀UN UN𝐀 😀UN😀', un)).toEqual([['UN', 'U N']]);
    expect(matched('ПУН UN', un)).toEqual([['UN', 'U N']]);
    // A position refused for its boundary does not hide a match that starts inside it.
    expect(matched('UNUN UN', un)).toEqual([['UN', 'U N']]);
    expect(matched('aaaa', [alias('aa', 'x', { word_boundaries: false })])).toEqual([
      ['aa', 'x'],
      ['aa', 'x'],
    ]);
  });

  it('matches without case where the lower case moves characters (İ is two characters in lower case)', () => {
    expect(matched('İstanbul and UN', [alias('UN', 'U N')])).toEqual([['UN', 'U N']]);
    expect(matched('Istanbul ıstanbul', [alias('istanbul', 'x', { case_sensitive: true })])).toEqual([]);
    expect(matched('STRASSE straße', [alias('straße', 'street')])).toEqual([['straße', 'street']]);
  });

  it('reads the rule’s string literally (no pattern syntax)', () => {
    expect(matched('a.b axb', [alias('a.b', 'dot', { word_boundaries: false })])).toEqual([['a.b', 'dot']]);
  });
});

describe('applying rules to the spoken text', () => {
  const request = (text: string, rules: PronunciationRule[], normalize = true) => ({
    text,
    normalize,
    pronunciation: rules,
  });

  it('says an alias before normalisation, and normalises the alias', () => {
    const normalized = normalizeFor(request('The UN has 5 seats.', [alias('UN', 'United Nations')]));
    expect(normalized.text).toBe('The United Nations has five seats.');
    expect(normalizeFor(request('Call 911', [alias('911', 'nine one one')])).text).toBe('Call nine one one');
    expect(normalizeFor(request('Route R66', [alias('R66', 'Route 66')])).text).toBe('Route Route sixty-six');
  });

  it('marks a phoneme rule’s words with their IPA (ARPAbet converted), the words kept', () => {
    const normalized = normalizeFor(
      request('I like tomato soup. Tomato!', [
        {
          type: 'phoneme',
          string_to_replace: 'tomato',
          phoneme: 'T AH0 M AA1 T OW0',
          alphabet: 'cmu-arpabet',
        },
      ]),
    );
    expect(normalized.text).toBe('I like tomato soup. Tomato!');
    expect(phonemeSpansOf(normalized)).toEqual([
      { start: 7, end: 13, ipa: 'təmˈɑːtoʊ' },
      { start: 20, end: 26, ipa: 'təmˈɑːtoʊ' },
    ]);
  });

  it('gives <phoneme> tags the same spans', () => {
    const normalized = normalizeFor({
      text: 'I like <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> soup.',
      normalize: false,
    });
    expect(normalized.text).toBe('I like tomato soup.');
    expect(phonemeSpansOf(normalized)).toEqual([{ start: 7, end: 13, ipa: 'təmˈɑːtoʊ' }]);
    const arpabet = normalizeFor({
      text: 'Say <phoneme alphabet="cmu-arpabet" ph="T AH0 M AA1 T OW0">tomato</phoneme>.',
      normalize: false,
    });
    expect(phonemeSpansOf(arpabet)).toEqual([{ start: 4, end: 10, ipa: 'təmˈɑːtoʊ' }]);
  });

  it('hands each engine call the spans inside it, in its own offsets', () => {
    const spans = [
      { start: 7, end: 13, ipa: 'a' },
      { start: 30, end: 36, ipa: 'b' },
    ];
    expect(spansWithin(spans, 20, 40)).toEqual([{ start: 10, end: 16, ipa: 'b' }]);
    // A span cut by the sentence splitting is said as written.
    expect(spansWithin(spans, 10, 40)).toEqual([{ start: 20, end: 26, ipa: 'b' }]);
  });

  it('bounds the phonemes of one engine call: "a" said as 100 symbols, 20 times, gives 3 spans', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      start: i * 2,
      end: i * 2 + 1,
      ipa: 'ə'.repeat(100),
    }));
    // A 40-character call takes MAX_ENGINE_TEXT (150) symbols: one span; 150 characters take 300: three.
    expect(spansWithin(many, 0, 40)).toHaveLength(1);
    expect(spansWithin(many, 0, 150)).toHaveLength(3);
    expect(spansWithin([{ start: 7, end: 13, ipa: 'təmˈɑːtoʊ' }], 0, 19)).toHaveLength(1);
  });
});

/** A fake engine: 100 ms per character, one word per space-separated word; it records its requests. */
function recordingEngine() {
  const requests: EngineSynthesisRequest[] = [];
  const provider: TtsProvider = {
    size: 1,
    async synthesize(request): Promise<EngineSynthesisResult> {
      requests.push(request);
      const sampleRate = 1000;
      const words = [...request.text.matchAll(/\S+/g)].map((m) => ({
        start: m.index,
        end: m.index + m[0].length,
        startMs: m.index * 100,
        endMs: (m.index + m[0].length) * 100,
      }));
      return {
        sampleRate,
        samples: new Int16Array(request.text.length * 100),
        words,
        timing: 'exact',
      };
    },
  };
  return { provider, requests };
}

const speech = (text: string, rules: PronunciationRule[]): SpeechRequest => ({
  text,
  voice: { engine: 'espeak', voice: 'en-us' },
  settings: { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: false },
  normalize: true,
  pronunciation: rules,
});

describe('how much longer the rules may make a text', () => {
  const request = (text: string, rules: PronunciationRule[]) => ({
    text,
    normalize: true,
    readsAudioTags: false,
    pronunciation: rules,
  });
  it('lets real dictionaries lengthen a text, a short text by one long alias', () => {
    const un = [alias('UN', 'United Nations'), alias('WHO', 'World Health Organization')];
    expect(pronunciationGrowthProblem(request('The UN and the WHO met. '.repeat(100), un))).toBeUndefined();
    expect(pronunciationGrowthProblem(request('UN', [alias('UN', 'x'.repeat(400))]))).toBeUndefined();
    expect(pronunciationGrowthProblem(request('a'.repeat(1000), []))).toBeUndefined();
  });
  it('refuses an alias that makes short matches hundreds of characters, normalised further', () => {
    const amplifier = [alias('a', '9'.repeat(400), { word_boundaries: false })];
    expect(pronunciationGrowthProblem(request('a'.repeat(1000), amplifier))).toMatch(
      /would be spoken as \d+ characters, against 1000 without them; the aliases may make it at most 4500\./,
    );
    expect(pronunciationGrowthProblem(request('a a', amplifier))).toMatch(/at most 512\./);
  });
});

describe('the speech pipeline with rules', () => {
  it('speaks the alias and keeps the alignment on the text as written', async () => {
    const { provider, requests } = recordingEngine();
    const text = 'The UN met.';
    const result = await synthesizeSpeech(provider, speech(text, [alias('UN', 'United Nations')]));
    expect(requests.map((r) => r.text)).toEqual(['The United Nations met.']);
    expect(result.normalizedAlignment.characters.join('')).toBe('The United Nations met.');
    expect(result.alignment.characters.join('')).toBe(text);
    // "UN" (4–6) spans the time of "United Nations" (400–1800 ms); "met" keeps its own (1900–2300 ms).
    const a = result.alignment;
    expect(a.character_start_times_seconds[4]).toBeCloseTo(0.4, 3);
    expect(a.character_end_times_seconds[5]).toBeCloseTo(1.8, 3);
    expect(a.character_start_times_seconds[7]).toBeCloseTo(1.9, 3);
    expect(a.character_end_times_seconds[9]).toBeCloseTo(2.2, 3);
  });

  it('hands the engine the phoneme spans of each sentence in that sentence’s offsets', async () => {
    const { provider, requests } = recordingEngine();
    await synthesizeSpeech(
      provider,
      speech('Soup first. I like tomato soup.', [phoneme('tomato', 'təˈmɑːtoʊ')]),
    );
    expect(requests.map((r) => [r.text, r.phonemes])).toEqual([
      ['Soup first.', undefined],
      ['I like tomato soup.', [{ start: 7, end: 13, ipa: 'təmˈɑːtoʊ' }]],
    ]);
  });

  it('applies no rule to text without a match, and none when there are no rules', async () => {
    const { provider, requests } = recordingEngine();
    await synthesizeSpeech(provider, speech('Plain words.', [alias('UN', 'United Nations')]));
    await synthesizeSpeech(provider, speech('Plain words.', []));
    expect(requests.map((r) => [r.text, r.phonemes])).toEqual([
      ['Plain words.', undefined],
      ['Plain words.', undefined],
    ]);
  });
});
