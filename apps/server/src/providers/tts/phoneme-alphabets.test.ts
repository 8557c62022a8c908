import { describe, expect, it } from 'vitest';
import { eSpeakText } from './engines/espeak-engine';
import { ipaToKokoro, ipaToPiper, splicedTextPhonemes } from './engines/neural-phonemes';
import {
  arpabetToIpa,
  festivalSyllables,
  fliteLexPhones,
  ipaPhones,
  ipaToESpeak,
  normalizeIpa,
  PronunciationAlphabetError,
  pronunciationIpa,
} from './phoneme-alphabets';
import { placeholderWords, spliceSpans, toRequestRange, wordsOnRequest } from './phoneme-splice';

/* Issue 30: the pronunciations of phoneme rules and <phoneme> tags in each engine's alphabet (research-30 §1). */

describe('IPA as the engines are given it', () => {
  it('moves a stress mark from before the syllable to before its vowel, as eSpeak writes it', () => {
    expect(normalizeIpa('təˈmɑːtoʊ')).toBe('təmˈɑːtoʊ');
    expect(normalizeIpa('/ˌɪn.təˈnæʃ.ə.nəl/')).toBe('ˌɪntənˈæʃənəl');
  });

  it('keeps two-letter phonemes whole, joins a length mark to its phone and writes g as ɡ', () => {
    expect(ipaPhones('ˈtʃiːz gʊd')).toEqual([
      [
        { stress: '', core: 'tʃ', long: false },
        { stress: 'ˈ', core: 'i', long: true },
        { stress: '', core: 'z', long: false },
      ],
      [
        { stress: '', core: 'ɡ', long: false },
        { stress: '', core: 'ʊ', long: false },
        { stress: '', core: 'd', long: false },
      ],
    ]);
  });
});

describe('CMU ARPAbet to IPA', () => {
  it('reads phones with stress digits, AH0 as ə and ER0 as ɚ, any case', () => {
    expect(arpabetToIpa('T AH0 M AA1 T OW0')).toBe('təmˈɑːtoʊ');
    expect(arpabetToIpa('w ah1 t er0')).toBe('wˈʌtɚ');
    expect(arpabetToIpa('K AH0 M P Y UW1 T ER0')).toBe('kəmpjˈuːtɚ');
    expect(arpabetToIpa('EH2 K S P L AH0 N EY1 SH AH0 N')).toBe('ˌɛksplənˈeɪʃən');
    expect(pronunciationIpa('G UH1 D', 'cmu-arpabet')).toBe('ɡˈʊd');
  });

  it('refuses a phone that is not ARPAbet', () => {
    expect(() => arpabetToIpa('T QQ1')).toThrow(PronunciationAlphabetError);
  });
});

describe('IPA to eSpeak NG mnemonics', () => {
  it('gives the measured mnemonics of research-30 §1', () => {
    expect(ipaToESpeak('təˈmɑːtoʊ')).toBe("t@m'A:toU");
    expect(ipaToESpeak('ˈθɪŋk ˈðɛə')).toBe("T'INk D'e@");
    expect(ipaToESpeak('dʒʌdʒ ʃɜːt')).toBe('dZVdZ S3:t');
    expect(ipaToESpeak('ˌaɪˈoʊ bɔɪ')).toBe(",aI'oU bOI");
  });

  it('leaves out what has no mnemonic', () => {
    expect(ipaToESpeak('tʘmɑ')).toBe('tmA:');
    expect(ipaToESpeak('ʘ')).toBe('');
  });
});

describe('IPA to the neural models’ inventories', () => {
  it('Kokoro: misaki’s merges and American rewrites, stress before the vowel', () => {
    expect(ipaToKokoro('təˈmɑːtoʊ', 'en-us')).toBe('təmˈɑtO');
    expect(ipaToKokoro('ˈtʃaɪ', 'en-us')).toBe('ʧˈI');
    expect(ipaToKokoro('ˈbɜːd ˈrɛd', 'en-us')).toBe('bˈɜɹd ɹˈɛd');
    // British keeps the length marks and writes əʊ as Q.
    expect(ipaToKokoro('təˈmɑːtəʊ', 'en-gb-x-rp')).toBe('təmˈɑːtQ');
  });

  it('Piper: eSpeak’s own IPA, r as ɹ in English', () => {
    expect(ipaToPiper('təˈmɑːtoʊ', 'en-us')).toBe('təmˈɑːtoʊ');
    expect(ipaToPiper('ˈrɛd', 'en-us')).toBe('ɹˈɛd');
    expect(ipaToPiper('ˈrosa', 'es')).toBe('rˈosa');
  });

  it('splices a span’s phonemes in place of its word’s, spaces as written', async () => {
    const phonemize = async (text: string) => `<${text.trim()}>`;
    const spans = [{ start: 7, end: 13, ipa: 'X' }];
    expect(await splicedTextPhonemes('I like tomato soup.', spans, phonemize, (ipa) => ipa)).toBe(
      '<I like> X <soup.>',
    );
    expect(await splicedTextPhonemes('I like tomato.', spans, phonemize, (ipa) => ipa)).toBe('<I like> X<.>');
    expect(
      await splicedTextPhonemes('tomato soup', [{ start: 0, end: 6, ipa: 'X' }], phonemize, (i) => i),
    ).toBe('X <soup>');
  });
});

describe('flite and Festival lexicon entries', () => {
  it('flite: lower-case ARPAbet with stress digits on the vowels, stressed schwa as ah', () => {
    expect(fliteLexPhones('təˈmɑːtoʊ')).toBe('t ax0 m aa1 t ow0');
    expect(fliteLexPhones(arpabetToIpa('T AH0 M AA1 T OW0'))).toBe('t ax0 m aa1 t ow0');
    expect(fliteLexPhones('ˈəp')).toBe('ah1 p');
    expect(fliteLexPhones('ˈdʒɑːb')).toBe('jh aa1 b');
  });

  it('Festival: one syllable per vowel, a single consonant starting the next, stress 0/1', () => {
    expect(festivalSyllables('təˈmɑːtoʊ')).toBe('(((t ax) 0) ((m aa) 1) ((t ow) 0))');
    expect(festivalSyllables('ˈmɪstɚ')).toBe('(((m ih s) 1) ((t er) 0))');
    expect(festivalSyllables('ˌaɪˈoʊ')).toBe('(((ay) 1) ((ow) 1))');
    expect(festivalSyllables('ʘ')).toBe('');
  });
});

describe('an engine’s text with the spans put in, and back', () => {
  const text = 'I like tomato soup.';
  const spliced = spliceSpans(text, [{ start: 7, end: 13, ipa: 'x' }], () => '[[t@m]]');

  it('maps a word inside a span onto the whole written word, and the rest by its shift', () => {
    expect(spliced.text).toBe('I like [[t@m]] soup.');
    // eSpeak's event for the bracketed word covers only its first syllable.
    expect(toRequestRange(spliced, 7, 10)).toEqual({ start: 7, end: 13 });
    expect(toRequestRange(spliced, 15, 19)).toEqual({ start: 14, end: 18 });
    expect(toRequestRange(spliced, 2, 6)).toEqual({ start: 2, end: 6 });
    expect(
      wordsOnRequest(spliced, [
        { start: 7, end: 9, startMs: 300, endMs: 350 },
        { start: 9, end: 14, startMs: 350, endMs: 600 },
        { start: 15, end: 19, startMs: 600, endMs: 900 },
      ]),
    ).toEqual([
      { start: 7, end: 13, startMs: 300, endMs: 600 },
      { start: 14, end: 18, startMs: 600, endMs: 900 },
    ]);
  });

  it('makes pronounceable placeholder words that are not in the text', () => {
    expect(placeholderWords('plain text', 3)).toEqual(['parlaba', 'parlabe', 'parlabi']);
    expect(placeholderWords('Parlaba said', 2)).toEqual(['parlabe', 'parlabi']);
    expect(new Set(placeholderWords('', 100)).size).toBe(100);
  });
});

describe('eSpeak’s text: only our spans are phonemes', () => {
  it('never lets the text’s own brackets make eSpeak’s [[ ]], even beside a span it could not say', () => {
    expect(eSpeakText({ text: "Say [[h@'loU]] now." }).text).toBe("Say ((h@'loU]] now.");
    // A span with no eSpeak mnemonic (IPA "q") is said as written: its "[" next to the text's "[" is
    // still text (a review found the two pieces rejoined into "[[" when each was defused on its own).
    const text = "Say [[h@'loU]] now.";
    expect(eSpeakText({ text, phonemes: [{ start: 4, end: 5, ipa: 'q' }] }).text).not.toContain('[[');
    // Our own span still is one, right after a "[" of the text.
    expect(
      eSpeakText({ text: 'a [tomato', phonemes: [{ start: 3, end: 9, ipa: 'təˈmɑːtoʊ' }] }).text,
    ).toMatch(/^a \(\[\[[^[\]]+\]\]$/);
  });
});
