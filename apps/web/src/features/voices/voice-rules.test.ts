import { IVC_MAX_FILES, VOICE_SAMPLE_MAX_BYTES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { makeLibraryVoice, makeOwnVoice } from '../../test/voices-fixture';
import { emptyLibraryFilters, hasLibraryFilters, toSharedVoicesQuery } from './library-rules';
import { buildVoiceLabels, describeVoiceTraits, humanizeLabel, readEditableLabels } from './voice-labels';
import {
  addSampleFiles,
  canShareVoice,
  checkCloneForm,
  checkSampleFile,
  describeLibraryVoice,
  getOwnVoiceKind,
  isLibraryCopy,
  isPlanLimitError,
  isVoiceUnavailable,
  readVoiceSharing,
  sharedVoicePath,
} from './voice-rules';

const file = (name: string, type = 'audio/wav', size = 1000, lastModified = 1) => ({
  name,
  type,
  size,
  lastModified,
});

describe('checkSampleFile', () => {
  it('takes §5 audio up to 11 MB and names what it refuses', () => {
    expect(checkSampleFile(file('a.mp3', 'audio/mpeg'))).toBeNull();
    expect(checkSampleFile(file('a.flac', ''))).toBeNull();
    expect(checkSampleFile(file('a.wav', 'audio/wav', VOICE_SAMPLE_MAX_BYTES))).toBeNull();
    expect(checkSampleFile(file('notes.txt', 'text/plain'))).toMatch(/^notes\.txt is not an audio file/);
    expect(checkSampleFile(file('a.wav', 'audio/wav', 0))).toBe('a.wav is empty.');
    expect(checkSampleFile(file('big.wav', 'audio/wav', 12 * 1024 * 1024))).toBe(
      'big.wav is 12.0 MB; a sample may be at most 11 MB.',
    );
  });
});

describe('addSampleFiles', () => {
  it('keeps good files once, names refused ones, and stops at the API’s maximum', () => {
    const first = addSampleFiles([], [file('a.wav'), file('notes.txt', 'text/plain'), file('a.wav')]);
    expect(first.files.map((f) => f.name)).toEqual(['a.wav']);
    expect(first.problems).toEqual([expect.stringMatching(/^notes\.txt is not an audio file/)]);
    const many = Array.from({ length: IVC_MAX_FILES + 2 }, (_, i) => file(`s${i}.wav`, 'audio/wav', 10, i));
    const capped = addSampleFiles(first.files, many);
    expect(capped.files).toHaveLength(IVC_MAX_FILES);
    expect(capped.problems).toHaveLength(3);
  });
});

describe('checkCloneForm', () => {
  it('asks for samples, a name and the consent, and accepts a complete form', () => {
    expect(checkCloneForm({ files: [], name: '  ', description: '', consent: false })).toEqual({
      files: 'Add at least one audio sample of the voice.',
      name: 'Give the voice a name.',
      consent: 'Confirm that you have the rights and the consent to clone this voice.',
    });
    expect(checkCloneForm({ files: [{}], name: 'Ada', description: '', consent: true })).toEqual({});
    expect(
      checkCloneForm({ files: [{}], name: 'x'.repeat(101), description: 'y'.repeat(501), consent: true }),
    ).toEqual({
      name: 'Keep the name to 100 characters.',
      description: 'Keep the description to 500 characters.',
    });
  });
});

describe('sharing (history/voices §3, §5)', () => {
  it('reads the sharing state, library copies and copied_disabled', () => {
    const shared = makeOwnVoice({
      sharing: { status: 'enabled', public_owner_id: 'p1', live_moderation_enabled: true },
    });
    expect(readVoiceSharing(shared)).toMatchObject({ status: 'enabled', public_owner_id: 'p1' });
    expect(readVoiceSharing(makeOwnVoice({ sharing: null }))).toBeNull();
    const copy = makeOwnVoice({ sharing: { status: 'copied' }, is_owner: false });
    const gone = makeOwnVoice({ sharing: { status: 'copied_disabled' }, is_owner: false });
    expect(isLibraryCopy(copy)).toBe(true);
    expect(isVoiceUnavailable(copy)).toBe(false);
    expect(isVoiceUnavailable(gone)).toBe(true);
    expect(getOwnVoiceKind(gone)).toBe('library');
    expect(getOwnVoiceKind(makeOwnVoice({ category: 'generated' }))).toBe('generated');
    expect(canShareVoice(copy)).toBe(false);
    expect(canShareVoice(makeOwnVoice({ safety_control: 'BAN' }))).toBe(false);
    expect(canShareVoice(shared)).toBe(true);
    expect(sharedVoicePath('p 1', 'v1')).toBe('/app/voice-lab/share/p%201/v1');
  });

  it('knows the plan-limit error codes', () => {
    expect(isPlanLimitError('voice_limit_reached')).toBe(true);
    expect(isPlanLimitError('voice_cloning_not_allowed')).toBe(true);
    expect(isPlanLimitError('invalid_request')).toBe(false);
    expect(isPlanLimitError(undefined)).toBe(false);
  });
});

describe('labels', () => {
  it('edits gender, accent and language and keeps the other labels', () => {
    const labels = { gender: 'male', age: 'old', language: 'en', use_case: 'news' };
    expect(readEditableLabels(labels)).toEqual({ gender: 'male', accent: '', language: 'en' });
    expect(buildVoiceLabels({ gender: '', accent: ' British ', language: 'fr' }, labels)).toEqual({
      age: 'old',
      accent: 'british',
      language: 'fr',
      use_case: 'news',
    });
    expect(humanizeLabel('middle_aged')).toBe('Middle aged');
    expect(humanizeLabel('new york')).toBe('New York');
    expect(humanizeLabel('northern english')).toBe('Northern English');
    expect(humanizeLabel('characters_animation')).toBe('Characters & animation');
    expect(describeVoiceTraits({ language: 'de', gender: 'female', accent: 'standard' })).toEqual([
      'Female',
      'Standard',
      'German',
    ]);
    expect(describeLibraryVoice(makeLibraryVoice({ use_case: '' }))).toEqual([
      'Female',
      'Middle aged',
      'British',
    ]);
  });
});

describe('library query', () => {
  it('leaves "any" filters out and sends the page and sort', () => {
    expect(toSharedVoicesQuery(emptyLibraryFilters, 0)).toEqual({
      page: 0,
      page_size: 30,
      search: undefined,
      gender: undefined,
      age: undefined,
      accent: undefined,
      language: undefined,
      use_cases: undefined,
      featured: undefined,
      sort: 'created_date',
    });
    const filters = {
      ...emptyLibraryFilters,
      search: ' calm ',
      gender: 'female',
      useCase: 'news',
      sort: 'name' as const,
    };
    expect(toSharedVoicesQuery(filters, 2)).toMatchObject({
      page: 2,
      search: 'calm',
      gender: 'female',
      use_cases: 'news',
      sort: 'name',
    });
    expect(hasLibraryFilters(emptyLibraryFilters)).toBe(false);
    // Built-in voices only is the API's `featured`, and counts as a filter.
    expect(toSharedVoicesQuery({ ...emptyLibraryFilters, builtIn: true }, 0).featured).toBe('true');
    expect(hasLibraryFilters({ ...emptyLibraryFilters, builtIn: true })).toBe(true);
    expect(hasLibraryFilters({ ...emptyLibraryFilters, sort: 'name' })).toBe(false);
    expect(hasLibraryFilters(filters)).toBe(true);
  });
});
