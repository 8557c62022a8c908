import { describe, expect, it } from 'vitest';
import { makeModel, makeVoice } from '../../test/catalogue-fixture';
import { languageNotice } from './language-notice-rules';

const sarah = makeVoice({ name: 'Sarah', labels: { language: 'en' } });
const multilingual = makeModel({
  languages: [
    { language_id: 'en', name: 'English' },
    { language_id: 'de', name: 'German' },
  ],
});
const english = makeModel({ languages: [{ language_id: 'en', name: 'English' }] });

describe('languageNotice (issue 18 item 4)', () => {
  it('says nothing for an unknown language, a voice without one, or a match', () => {
    expect(languageNotice(null, sarah, multilingual)).toEqual({ kind: 'none' });
    expect(languageNotice({ language: null, spoken: false }, sarah, multilingual)).toEqual({ kind: 'none' });
    expect(languageNotice({ language: 'de', spoken: true }, makeVoice({ labels: {} }), multilingual)).toEqual(
      {
        kind: 'none',
      },
    );
    expect(
      languageNotice({ language: 'en', spoken: true }, makeVoice({ labels: { language: 'en-GB' } }), english),
    ).toEqual({
      kind: 'none',
    });
  });

  it('names a mismatch, and whether the model can read the text in its language', () => {
    expect(languageNotice({ language: 'de', spoken: true }, sarah, multilingual)).toEqual({
      kind: 'mismatch',
      language: 'de',
      voiceLanguage: 'en',
      modelSpeaksIt: true,
    });
    expect(languageNotice({ language: 'de', spoken: true }, sarah, english)).toMatchObject({
      modelSpeaksIt: false,
    });
  });

  it('names a language no engine speaks', () => {
    expect(languageNotice({ language: 'ko', spoken: false }, sarah, multilingual)).toEqual({
      kind: 'unspoken',
      language: 'ko',
      voiceLanguage: 'en',
    });
  });
});
