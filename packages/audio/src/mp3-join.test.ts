import { describe, expect, it } from 'vitest';
import { emptyMp3Summary, Mp3FrameFilter, mp3InfoFrame, parseMpegFrameHeader } from './mp3-join';

/** An MPEG-1 Layer III mono frame at 44.1 kHz (`kbps` one of the table's), its payload filled with `fill`. */
function frame(kbps: 128 | 192, fill: number, padding = false): Uint8Array {
  const index = kbps === 128 ? 9 : 11;
  const length = Math.floor((144_000 * kbps) / 44_100) + (padding ? 1 : 0);
  const bytes = new Uint8Array(length).fill(fill);
  bytes.set([0xff, 0xfb, (index << 4) | (padding ? 2 : 0), 0xc0]);
  return bytes;
}

/** A frame LAME would write first: its side information zero, then "Info" and its counts. */
function infoFrame(): Uint8Array {
  const bytes = frame(128, 0);
  bytes.set(
    [...'Info'].map((c) => c.charCodeAt(0)),
    4 + 17,
  );
  return bytes;
}

const id3 = (payload: number) => {
  const tag = new Uint8Array(10 + payload);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, (payload >> 7) & 0x7f, payload & 0x7f]);
  return tag;
};
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const id3v1 = () => concat(new Uint8Array([0x54, 0x41, 0x47]), new Uint8Array(125).fill(0x20));

describe('Mp3FrameFilter', () => {
  const audio = [frame(128, 1), frame(128, 2, true), frame(192, 3)];
  const file = concat(id3(300), infoFrame(), ...audio, id3v1());

  it.each([1, 7, 418, 100_000])('passes only the audio frames, in chunks of %i bytes', (size) => {
    const summary = emptyMp3Summary();
    const filter = new Mp3FrameFilter(summary);
    const out: Uint8Array[] = [];
    for (let at = 0; at < file.length; at += size) out.push(filter.push(file.subarray(at, at + size)));
    filter.end();
    expect(Buffer.from(concat(...out)).equals(Buffer.from(concat(...audio)))).toBe(true);
    expect(summary.frames).toBe(3);
    expect(summary.bytes).toBe(417 + 418 + 626);
    expect(summary.offsets).toEqual([0, 417, 835]);
    expect(summary.constantBitrate).toBe(false);
  });

  it('writes one header for the whole: a Xing frame with the frame and byte counts', () => {
    const summary = emptyMp3Summary();
    for (const part of [file, file]) {
      const filter = new Mp3FrameFilter(summary);
      filter.push(part);
      filter.end();
    }
    const header = mp3InfoFrame(summary) as Uint8Array;
    const parsed = parseMpegFrameHeader(header);
    expect(parsed).toMatchObject({ version: 1, layer: 3, sampleRate: 44_100, channelMode: 3 });
    expect(header.length).toBe(parsed?.length);
    const view = new DataView(header.buffer);
    expect(Buffer.from(header.subarray(21, 25)).toString()).toBe('Xing');
    expect(view.getUint32(25)).toBe(7);
    expect(view.getUint32(29)).toBe(6);
    expect(view.getUint32(33)).toBe(header.length + 2 * (417 + 418 + 626));
  });
});
