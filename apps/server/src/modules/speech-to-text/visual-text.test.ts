import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeClusters, visualClusters } from './visual-text';

const shown = (text: string) =>
  visualClusters(text)
    .map((c) => c.shown)
    .join('');
const codes = (text: string) => [...text].map((c) => (c.codePointAt(0) ?? 0).toString(16));

describe('shapeClusters (Arabic joining)', () => {
  it('gives each letter its joined form: initial, medial, final, or isolated', () => {
    // سلم: sīn initial, lām medial, mīm final.
    expect(
      codes(
        shapeClusters('سلم')
          .map((c) => c.shown)
          .join(''),
      ),
    ).toEqual(['feb3', 'fee0', 'fee2']);
    // A letter that joins only before it (ر) ends the joining: the letter after it starts anew.
    expect(
      codes(
        shapeClusters('برب')
          .map((c) => c.shown)
          .join(''),
      ),
    ).toEqual(['fe91', 'feae', 'fe8f']);
    // Alone, or next to a space, a letter is isolated.
    expect(
      codes(
        shapeClusters('ب ب')
          .map((c) => c.shown)
          .join(''),
      ),
    ).toEqual(['fe8f', '20', 'fe8f']);
  });

  it('writes lam + alef as its ligature, standing for both letters', () => {
    const [ligature] = shapeClusters('لا');
    expect(ligature).toEqual({ shown: '\uFEFB', source: 'لا' });
    // After a letter that joins forward: the final form.
    expect(
      codes(
        shapeClusters('سلا')
          .map((c) => c.shown)
          .join(''),
      ),
    ).toEqual(['feb3', 'fefc']);
  });

  it('keeps marks on their letter and lets joining pass over them', () => {
    const clusters = shapeClusters('بَب');
    expect(clusters).toHaveLength(2);
    expect(codes(clusters[0]?.shown ?? '')).toEqual(['fe91', '64e']);
    expect(clusters[0]?.source).toBe('بَ');
    expect(codes(clusters[1]?.shown ?? '')).toEqual(['fe90']);
  });

  it('shapes Persian letters too', () => {
    expect(
      codes(
        shapeClusters('پی')
          .map((c) => c.shown)
          .join(''),
      ),
    ).toEqual(['fb58', 'fbfd']);
  });
});

describe('visualClusters (drawing order, left to right)', () => {
  it('leaves left-to-right text as it is', () => {
    expect(shown('Hello, Привет, Καλημέρα 123.')).toBe('Hello, Привет, Καλημέρα 123.');
  });

  it('reverses a right-to-left run, keeps its numbers in order and mirrors its brackets', () => {
    // Hebrew has no joining: the letters show the reversal plainly.
    expect(shown('אב גד')).toBe('דג בא');
    expect(shown('אב 123 גד')).toBe('דג 123 בא');
    expect(shown('אב (גד)')).toBe('(דג) בא');
    // Numbers with their separators stay one number.
    expect(shown('אב 1,000.50')).toBe('1,000.50 בא');
  });

  it('keeps the line left to right around a run: time, speaker and the words after it', () => {
    expect(shown('[00:01] אב גד and more')).toBe('[00:01] דג בא and more');
    // A full stop after the run stays after it (the line's direction is left to right).
    expect(shown('אב.')).toBe('בא.');
  });

  it('marks the clusters of a reversed run, each standing for its own text', () => {
    const clusters = visualClusters('سلام');
    expect(clusters.every((c) => c.reversed)).toBe(true);
    expect(
      clusters
        .map((c) => c.source)
        .reverse()
        .join(''),
    ).toBe('سلام');
  });

  it('loses and invents no text: the sources are the text, reordered within right-to-left runs', () => {
    const alphabet = fc.constantFrom(...'abc 12.,()אבגسلامپی'.split(''), 'لا', '\u064E');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const sources = visualClusters(text).map((c) => c.source);
        expect([...sources.join('')].sort()).toEqual([...text].sort());
      }),
    );
  });
});
