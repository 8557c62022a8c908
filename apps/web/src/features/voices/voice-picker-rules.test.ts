import { describe, expect, it } from 'vitest';
import { makeVoice } from '../../test/catalogue-fixture';
import { describeVoiceLabels, filterChoices, filterVoiceList, voicesOfLanguage } from './voice-picker-rules';

const voice = (name: string, labels: Record<string, string>, description = '') =>
  makeVoice({ voice_id: name.toLowerCase(), name, labels, description });

const VOICES = [
  voice('Sarah', {
    language: 'en',
    accent: 'american',
    gender: 'female',
    age: 'young',
    use_case: 'narration',
  }),
  voice('Alan', {
    language: 'en',
    accent: 'scottish',
    gender: 'male',
    age: 'middle_aged',
    use_case: 'narration',
  }),
  voice('Anna', {
    language: 'de',
    accent: 'standard',
    gender: 'female',
    age: 'middle_aged',
    use_case: 'informative',
  }),
  voice('Lukas', {
    language: 'de-AT',
    accent: 'standard',
    gender: 'male',
    age: 'young',
    use_case: 'narration',
  }),
  voice('Lucía', { language: 'es', accent: 'castilian', gender: 'female', age: 'young' }, 'Spanish narrator'),
];
const names = (list: { name: string }[]) => list.map((v) => v.name);

describe('the voice picker filters (issue 18 item 4)', () => {
  it('filters by language (its primary code), accent, gender, age and use case, all at once', () => {
    expect(names(filterVoiceList(VOICES, { language: 'de' }))).toEqual(['Anna', 'Lukas']);
    expect(names(filterVoiceList(VOICES, { accent: 'scottish' }))).toEqual(['Alan']);
    expect(names(filterVoiceList(VOICES, { gender: 'female', age: 'young' }))).toEqual(['Sarah', 'Lucía']);
    expect(names(filterVoiceList(VOICES, { use_case: 'narration', language: 'de' }))).toEqual(['Lukas']);
    expect(names(filterVoiceList(VOICES, { language: 'fr' }))).toEqual([]);
    expect(names(filterVoiceList(VOICES, { language: '', accent: '' }))).toEqual(names(VOICES));
  });

  it('searches every word in the name, description, labels and language name, ignoring accents and case', () => {
    expect(names(filterVoiceList(VOICES, { search: 'lucia' }))).toEqual(['Lucía']);
    expect(names(filterVoiceList(VOICES, { search: 'GERMAN female' }))).toEqual(['Anna']);
    expect(names(filterVoiceList(VOICES, { search: 'narrator', language: 'es' }))).toEqual(['Lucía']);
    expect(names(filterVoiceList(VOICES, { search: '  ' }))).toEqual(names(VOICES));
    expect(filterVoiceList(VOICES, { search: 'nobody' })).toEqual([]);
  });

  it('offers as choices only the values the voices carry, named, with their counts', () => {
    expect(filterChoices(VOICES, 'language')).toEqual([
      { value: 'en', label: 'English', count: 2 },
      { value: 'de', label: 'German', count: 2 },
      { value: 'es', label: 'Spanish', count: 1 },
    ]);
    expect(filterChoices(VOICES, 'age').map((c) => c.label)).toEqual(['Middle aged', 'Young']);
    expect(filterChoices(VOICES, 'use_case').map((c) => [c.value, c.count])).toEqual([
      ['informative', 1],
      ['narration', 3],
    ]);
  });

  it('finds the voices of a language for the language notice', () => {
    expect(names(voicesOfLanguage(VOICES, 'de'))).toEqual(['Anna', 'Lukas']);
  });

  it('shows a voice’s language first, then its labels, readable', () => {
    expect(
      describeVoiceLabels({ gender: 'female', accent: 'british', use_case: 'social_media', language: 'en' }),
    ).toEqual(['English', 'British', 'female', 'social media']);
  });

  it('keeps the capitals of places in accents and reads compound use cases as phrases', () => {
    expect(describeVoiceLabels({ accent: 'latin american', use_case: 'characters_animation' })).toEqual([
      'Latin American',
      'characters & animation',
    ]);
  });
});
