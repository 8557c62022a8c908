import { describe, expect, it } from 'vitest';
import {
  DUBBING_LANGUAGES,
  DubbingLanguageCapability,
  DubbingLanguageCode,
  findDubbingLanguage,
} from './dubbing-languages';

describe('the dubbing languages (history/voices §9)', () => {
  it('are the 29 of the public documentation, in its order, each once', () => {
    expect(DUBBING_LANGUAGES.map((l) => l.code).join(' ')).toBe(
      'en hi pt zh es fr de ja ar ru ko id it nl tr pl sv fil ms ro uk el cs da fi bg hr sk ta',
    );
    expect(new Set(DUBBING_LANGUAGES.map((l) => l.name)).size).toBe(29);
    expect(findDubbingLanguage(' FIL ')?.name).toBe('Filipino');
    expect(findDubbingLanguage('tl')).toBeUndefined();
  });

  it('validate a code and a capability entry', () => {
    expect(DubbingLanguageCode.safeParse('pt').success).toBe(true);
    expect(DubbingLanguageCode.safeParse('pt-BR').success).toBe(false);
    const entry = {
      code: 'pt',
      name: 'Portuguese',
      can_transcribe: false,
      can_translate_from_english: true,
      can_speak: true,
      translation: 'offline_pivot',
      pivot: ['es'],
    };
    expect(DubbingLanguageCapability.parse(entry)).toEqual(entry);
    expect(DubbingLanguageCapability.safeParse({ ...entry, translation: 'cloud' }).success).toBe(false);
  });
});
