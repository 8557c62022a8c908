import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PDF_FONT_FILES } from './pdf-writer';
import { TrueTypeFont } from './truetype-font';

// Debian's fonts-dejavu-core is a runtime package (scripts/install-system-deps.sh): the tests need it too.
const font = new TrueTypeFont(fs.readFileSync(PDF_FONT_FILES.F1));

/** The tables of a font file, by tag, with the checksum its directory gives. */
function tablesOf(file: Buffer) {
  const tables = new Map<string, { data: Buffer; checksum: number }>();
  for (let i = 0; i < file.readUInt16BE(4); i += 1) {
    const at = 12 + 16 * i;
    const [offset, length] = [file.readUInt32BE(at + 8), file.readUInt32BE(at + 12)];
    expect(offset % 4, 'tables start on 4-byte boundaries').toBe(0);
    tables.set(file.toString('latin1', at, at + 4), {
      data: file.subarray(offset, offset + length),
      checksum: file.readUInt32BE(at + 4),
    });
  }
  return tables;
}

const sum = (data: Buffer) => {
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
  let total = 0;
  for (let at = 0; at < padded.length; at += 4) total = (total + padded.readUInt32BE(at)) >>> 0;
  return total;
};

describe('TrueTypeFont', () => {
  it('maps characters of many scripts to glyphs, and has none for Chinese', () => {
    for (const char of 'AéЖλשب€') expect(font.glyphOf(char.codePointAt(0) ?? 0), char).toBeGreaterThan(0);
    expect(font.glyphOf(0x65e5)).toBe(0); // 日
    expect(font.unitsPerEm).toBe(2048);
    expect(font.advanceOf(font.glyphOf(0x20))).toBeGreaterThan(0);
  });

  it('writes a subset that is a well-formed font of just those glyphs, components included', () => {
    const wanted = [...'Aé'].map((c) => font.glyphOf(c.codePointAt(0) ?? 0));
    const { file, newGlyph } = font.subset(wanted);
    // é is a composite (e and an acute) in DejaVu Sans: its components come along, renumbered.
    const subset = new TrueTypeFont(file);
    expect(subset.numGlyphs).toBeGreaterThan(3);
    expect(subset.numGlyphs).toBeLessThan(10);
    expect(newGlyph.get(0)).toBe(0);
    const tables = tablesOf(file);
    expect([...tables.keys()]).toEqual(
      ['OS/2', 'cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'name', 'post', 'prep'].sort(),
    );
    for (const [tag, table] of tables) {
      if (tag === 'head') continue; // its checksum is taken with checkSumAdjustment at 0
      expect(sum(table.data), tag).toBe(table.checksum);
    }
    expect(sum(file)).toBe(0xb1b0afba);
    // Each glyph keeps its width and outline; a composite points at the new numbers of its parts.
    for (const old of wanted) {
      const now = newGlyph.get(old) ?? -1;
      expect(subset.advanceOf(now)).toBe(font.advanceOf(old));
      expect(subset.glyphTop(now)).toBe(font.glyphTop(old));
    }
    const aOld = font.glyphOf(0x41);
    expect(subset.glyphData(newGlyph.get(aOld) ?? -1)).toEqual(font.glyphData(aOld));
    // The copyright and licence go along (the name table), as the font's licence asks.
    expect(tables.get('name')?.data.toString('latin1')).toContain('Bitstream');
    expect(file.length).toBeLessThan(6000 + 15_624);
  });
});
