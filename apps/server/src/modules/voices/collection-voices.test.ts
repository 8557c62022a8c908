import { describe, expect, it } from 'vitest';
import { mergeCollectionVoices } from './voice-collections.service';

describe('mergeCollectionVoices', () => {
  it('keeps the voices the caller cannot see in their places and fills the others in the given order', () => {
    const hidden = new Set(['h1', 'h2']);
    expect(mergeCollectionVoices(['a', 'h1', 'b', 'h2', 'c'], hidden, ['x', 'y'])).toEqual([
      'x',
      'h1',
      'y',
      'h2',
    ]);
  });

  it('appends what does not fit the old places, and drops repeats', () => {
    expect(mergeCollectionVoices(['h1', 'a'], new Set(['h1']), ['x', 'y', 'x', 'z'])).toEqual([
      'h1',
      'x',
      'y',
      'z',
    ]);
  });

  it('leaves out stored ids that are neither hidden nor given (deleted voices, voices taken out)', () => {
    expect(mergeCollectionVoices(['gone', 'a', 'b'], new Set(), ['b'])).toEqual(['b']);
    expect(mergeCollectionVoices(['a', 'b'], new Set(), [])).toEqual([]);
  });

  it('never lets the caller move or duplicate a hidden voice by naming it', () => {
    expect(mergeCollectionVoices(['h1', 'a'], new Set(['h1']), ['h1', 'x'])).toEqual(['h1', 'x']);
  });
});
