import { describe, expect, it } from 'vitest';
import { CHUNK_MAX_CHARS, CHUNK_MIN_CHARS, chunkText, OVERLAP_CHARS, paragraphsOf } from './kb-chunking';

const sentence = (i: number) => `Sentence number ${i} tells one small fact about the shop and its staff.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => sentence(from + k)).join(' ');

describe('chunkText', () => {
  it('keeps a short text whole', () => {
    expect(chunkText('We open at nine.\n\nWe close at five.')).toEqual([
      'We open at nine.\n\nWe close at five.',
    ]);
  });

  it('has nothing for a text without words', () => {
    expect(chunkText('  \n\n \t ')).toEqual([]);
  });

  it('cuts a long text into 800–1,200 character passages at sentence ends, overlapping', () => {
    const text = Array.from({ length: 12 }, (_, p) => paragraph(p * 6, 6)).join('\n\n');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(4);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      if (i < chunks.length - 1) expect(chunk.length).toBeGreaterThanOrEqual(CHUNK_MIN_CHARS);
      // Whole sentences only.
      expect(chunk).toMatch(/^Sentence number \d+/);
      expect(chunk).toMatch(/staff\.$/);
    }
    // Each passage after the first begins with the end of the one before.
    for (let i = 1; i < chunks.length; i++) {
      const head = (chunks[i] as string).split(/(?<=\.) /)[0] as string;
      expect(head.length).toBeLessThanOrEqual(OVERLAP_CHARS);
      expect(chunks[i - 1]).toContain(head);
    }
    // Every sentence is in some passage.
    for (let i = 0; i < 72; i++) expect(chunks.some((c) => c.includes(`${sentence(i)}`))).toBe(true);
  });

  it('breaks at a paragraph once the passage is long enough', () => {
    const text = `${paragraph(0, 12)}\n\n${paragraph(100, 12)}`;
    const [first] = chunkText(text);
    expect(first).toBe(paragraph(0, 12));
  });

  it('cuts a run-on text without stops at words', () => {
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkText(words);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      expect(chunk).toMatch(/^word\d+( word\d+)*$/);
    }
    expect(chunks.join(' ')).toContain('word899');
  });
});

describe('paragraphsOf', () => {
  it('splits at blank lines and joins lines within a paragraph', () => {
    expect(paragraphsOf('One\nline.\r\n\r\nTwo.\n \nThree.')).toEqual(['One line.', 'Two.', 'Three.']);
  });
});
