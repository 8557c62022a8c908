import { describe, expect, it } from 'vitest';
import { eSpeakPhonemes } from './espeak-engine';
import { kokoroESpeakVoice, kokoroTextPhonemes } from './kokoro-engine';
import {
  chunkIds,
  eSpeakWords,
  kokoroPhonemes,
  phonemeIds,
  piperPhonemes,
  splitPunctuation,
} from './neural-phonemes';
import {
  type PiperConfig,
  parsePiperConfig,
  piperIds,
  piperSentences,
  piperTextPhonemes,
} from './piper-engine';

/** No model here: eSpeak-NG's WebAssembly (loaded once, about 0.2 s) and the pure rewrites. */
describe('phonemes for the neural voices', () => {
  it('reads eSpeak IPA as words of phonemes, a tied phoneme one item', async () => {
    const ipa = await eSpeakPhonemes('Hello world', 'en-us');
    expect(ipa).toBe('h_ə_l_ˈoʊ w_ˈɜː_l_d');
    expect(eSpeakWords(ipa)).toEqual([
      ['h', 'ə', 'l', 'ˈoʊ'],
      ['w', 'ˈɜː', 'l', 'd'],
    ]);
  });

  it('writes American English as misaki does for Kokoro: one symbol per diphthong, no length marks', () => {
    expect(kokoroPhonemes('h_ə_l_ˈoʊ w_ˈɜː_l_d', 'en-us')).toBe('həlˈO wˈɜɹld');
    expect(kokoroPhonemes('t_ˈeɪ_k ð_ə tʃ_ˈɛ_k', 'en-us')).toBe('tˈAk ðə ʧˈɛk');
    expect(kokoroPhonemes('m_ˈaɪ b_ˈɔɪ', 'en-us')).toBe('mˈI bˈY');
  });

  it('keeps British vowels British, through the voice eSpeak has for them', async () => {
    // `en` is eSpeak's British English; `en-gb` is no voice name there and left it speaking American.
    expect(await eSpeakPhonemes('hello', 'en')).toBe('h_ə_l_ˈəʊ');
    expect(await kokoroTextPhonemes('The weather is nice.', 'en')).toBe('ðə wˈɛðəɹ ɪz nˈIs.');
    expect(await kokoroTextPhonemes('The weather is nice.', 'en-us')).toBe('ðə wˈɛðəɹ ɪz nˈIs.');
    expect(kokoroPhonemes('h_ə_l_ˈəʊ w_ˈɜː_l_d', 'en')).toBe('həlˈQ wˈɜːld');
  });

  it('speaks the text with its punctuation kept for the model', async () => {
    const phonemes = await kokoroTextPhonemes('Hello, world. How are you?', 'en-us');
    console.info(`en-us: ${phonemes}`);
    expect(phonemes).toMatch(/^həlˈO, wˈɜɹld\. hˈW ɑɹ juː?\?$|^həlˈO, wˈɜɹld\. hˈW ɑɹ ju\?$/);
    expect(splitPunctuation('Hi, there.')).toEqual([
      { text: 'Hi', punctuation: false },
      { text: ', ', punctuation: true },
      { text: 'there', punctuation: false },
      { text: '.', punctuation: true },
    ]);
  });

  it('reads French through the French eSpeak voice', async () => {
    expect(await kokoroTextPhonemes('Bonjour le monde.', kokoroESpeakVoice('ff_siwis'))).toBe(
      'bɔ̃ʒˈuʁ lə mˈɔ̃d.',
    );
  });

  it('reads Spanish through the Spanish phonemizer, and the language changes the phonemes', async () => {
    const text = 'Hola, ¿cómo estás? La voz es muy clara.';
    const spanish = await kokoroTextPhonemes(text, kokoroESpeakVoice('ef_dora'));
    const english = await kokoroTextPhonemes(text, kokoroESpeakVoice('ef_dora', 'en'));
    console.info(`es: ${spanish}\nen: ${english}`);
    expect(kokoroESpeakVoice('ef_dora')).toBe('es');
    // Spanish phonemes: the tap ɾ of "clara", θ of "voz" (Castilian), β of "La voz", stress on "estás".
    expect(spanish).toMatch(/^ˈola, ¿kˈomo estˈas\? /);
    expect(spanish).toContain('klˈaɾa');
    expect(spanish).toMatch(/βˈoθ/);
    expect(spanish).toContain('estˈas');
    expect(spanish).not.toBe(english);
    expect(english).not.toMatch(/βˈoθ/);
  });

  it('picks the eSpeak voice from the voice name, or the requested language', () => {
    expect(kokoroESpeakVoice('af_heart')).toBe('en-us');
    expect(kokoroESpeakVoice('bf_emma')).toBe('en');
    expect(kokoroESpeakVoice('ff_siwis')).toBe('fr');
    expect(kokoroESpeakVoice('pf_dora')).toBe('pt-br');
    expect(kokoroESpeakVoice('af_heart', 'fr')).toBe('fr');
    expect(kokoroESpeakVoice('bf_emma', 'en')).toBe('en');
    expect(() => kokoroESpeakVoice('af_heart', 'de')).toThrow(/does not speak the language "de"/);
    expect(() => kokoroESpeakVoice('xx_nobody')).toThrow(/Unknown Kokoro voice/);
  });

  it('merges the tied phonemes of the other languages (misaki EspeakG2P)', () => {
    expect(kokoroPhonemes('tʃ_ˈa_o m_ˈo_n_d_o', 'it')).toBe('ʧˈao mˈondo');
    expect(kokoroPhonemes('p_ˈi_ts_a', 'it')).toBe('pˈiʦa');
    expect(kokoroPhonemes('l_ə- m_ˈɔ̃_d', 'fr')).toBe('lə mˈɔ̃d');
    expect(kokoroPhonemes('kʲ_o̞_ˈɯᵝ_h_ä (en)_tʃ_ˈaɪ_n_iː_z_(ja)', 'ja')).toBe('kʲoˈɯᵝha ʧˈIniːz');
  });

  it('turns phonemes into vocabulary ids, leaving out what the model never learnt', () => {
    const vocabulary = new Map([
      ['h', 50],
      ['ə', 83],
      [' ', 16],
    ]);
    expect(phonemeIds('hə5 h', vocabulary)).toEqual([50, 83, 16, 50]);
    expect(chunkIds([1, 2, 16, 3, 4, 16, 5, 6], 5, 16)).toEqual([
      [1, 2, 16, 3, 4],
      [5, 6],
    ]);
    expect(chunkIds([1, 2, 3, 4, 5, 16, 6], 6, 16)).toEqual([[1, 2, 3, 4, 5], [6]]);
    expect(chunkIds([1, 2, 3], 510, 16)).toEqual([[1, 2, 3]]);
    // With phrase ends (5 is a comma), the cut goes after the phrase rather than at the last space.
    const ids = [1, 2, 3, 4, 5, 16, 6, 16, 7, 8, 9];
    expect(chunkIds(ids, 8, 16, new Set([5]))).toEqual([
      [1, 2, 3, 4, 5],
      [6, 16, 7, 8, 9],
    ]);
    expect(chunkIds(ids, 8, 16)).toEqual([
      [1, 2, 3, 4, 5, 16, 6],
      [7, 8, 9],
    ]);
  });

  it("writes Piper's ids as piper-phonemize does: start, each phoneme then the pad, end", async () => {
    const config = parsePiperConfig(
      {
        audio: { sample_rate: 22050 },
        espeak: { voice: 'en-us' },
        phoneme_type: 'espeak',
        phoneme_id_map: Object.fromEntries(
          [...'_^$ həlˈoʊwɜːd,.']
            .map((symbol, i) => [symbol, [i]])
            .concat(Array.from({ length: 40 }, (_, i) => [`x${i}`, [100 + i]])),
        ),
      },
      'test.onnx.json',
    ) satisfies PiperConfig;
    const phonemes = await piperTextPhonemes('Hello world.', 'en-us');
    expect(phonemes).toBe('həlˈoʊ wˈɜːld.');
    expect(piperPhonemes('h_ə_l_ˈoʊ')).toBe('həlˈoʊ');
    expect(piperIds('hə', config)).toEqual([1, 0, 4, 0, 5, 0, 2]);
  });

  it('reads Piper sentence by sentence, as Piper does', async () => {
    const phonemes = await piperTextPhonemes('Hello there. How are you? Fine!', 'en-us');
    const sentences = piperSentences(phonemes);
    expect(sentences).toHaveLength(3);
    expect(sentences.join(' ')).toBe(phonemes);
    expect(piperSentences('həlˈoʊ')).toEqual(['həlˈoʊ']);
  });

  it('refuses a malformed Piper configuration with the reason', () => {
    expect(() => parsePiperConfig({}, 'bad.json')).toThrow(/bad\.json is malformed: no sample rate/);
    expect(() =>
      parsePiperConfig(
        { audio: { sample_rate: 22050 }, espeak: { voice: 'en-us' }, phoneme_id_map: {} },
        'x.json',
      ),
    ).toThrow(/no phoneme id map/);
    expect(() =>
      parsePiperConfig(
        { audio: { sample_rate: 22050 }, espeak: { voice: 'en-us' }, phoneme_type: 'text' },
        'x.json',
      ),
    ).toThrow(/phoneme type "text"/);
  });
});
