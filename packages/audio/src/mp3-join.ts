/*
 * Joining MP3 files into one stream (review of issue 30: a Studio snapshot's chapters, Audio Native's
 * joined article). MPEG audio frames join byte for byte, but each file also starts with its own ID3v2 tag
 * and a Xing/Info (or VBRI) frame — a silent frame whose payload says how many frames and bytes *that file*
 * holds. Joined as they are, the result's first header describes chapter 1 alone: players that trust it
 * (Firefox, Safari, iOS) show chapter 1's duration and seek by its table; ffmpeg notices the size mismatch
 * and guesses the duration from the first frame's bit rate. So each part is reduced to its audio frames
 * (`Mp3FrameFilter`) and the whole gets one header written from the parts' counted frames (`mp3InfoFrame`).
 *
 * Not kept: the parts' LAME extension (encoder delay and padding for gapless playback). It describes one
 * encoding's first and last frame; the joined file holds several encodings, each with its own ~25 ms of
 * encoder delay inside, which players play as they always did — so the joined header has no LAME tag.
 * Also dropped: trailing ID3v1/APE tags and any bytes that are not an MPEG frame.
 */

/** One MPEG audio frame header (ISO 11172-3 / 13818-3 §2.4.2.3). */
export interface MpegFrameHeader {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5 (MPEG-2.5). */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  /** kbit/s. */
  bitrate: number;
  bitrateIndex: number;
  sampleRate: number;
  padding: boolean;
  /** 3: mono. */
  channelMode: number;
  /** Bytes of the whole frame, header included. */
  length: number;
  /** PCM samples per channel the frame decodes to. */
  samples: number;
}

const BITRATES: Record<string, number[]> = {
  // [version group][layer]: index 1..14 (0 is "free", 15 is invalid).
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = {
  1: [44_100, 48_000, 32_000],
  2: [22_050, 24_000, 16_000],
  2.5: [11_025, 12_000, 8_000],
};

function frameLength(version: number, layer: number, bitrate: number, sampleRate: number, pad: number) {
  if (layer === 1) return (Math.floor((12_000 * bitrate) / sampleRate) + pad) * 4;
  const perSample = layer === 3 && version !== 1 ? 72_000 : 144_000;
  return Math.floor((perSample * bitrate) / sampleRate) + pad;
}

/** The frame header at `at`, or undefined when the 4 bytes there are not one (free format included). */
export function parseMpegFrameHeader(bytes: Uint8Array, at = 0): MpegFrameHeader | undefined {
  if (at + 4 > bytes.length) return undefined;
  const b1 = bytes[at + 1] as number;
  const b2 = bytes[at + 2] as number;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  if (versionBits === 1 || layerBits === 0) return undefined;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const bitrate = BITRATES[`${version === 1 ? 1 : 2}-${layer}`]?.[bitrateIndex] as number;
  const sampleRate = SAMPLE_RATES[version]?.[rateIndex] as number;
  const pad = (b2 >> 1) & 1;
  return {
    version,
    layer,
    bitrate,
    bitrateIndex,
    sampleRate,
    padding: pad === 1,
    channelMode: ((bytes[at + 3] as number) >> 6) & 3,
    length: frameLength(version, layer, bitrate, sampleRate, pad),
    samples: layer === 1 ? 384 : layer === 2 || version === 1 ? 1152 : 576,
  };
}

/** Where a Layer III frame's side information ends: the Xing/Info tag starts there. */
function sideInfoEnd(header: MpegFrameHeader): number {
  if (header.version === 1) return 4 + (header.channelMode === 3 ? 17 : 32);
  return 4 + (header.channelMode === 3 ? 9 : 17);
}

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/** Whether a frame is a Xing/Info or VBRI header frame (silent; it describes its file, not audio). */
export function isMp3InfoFrame(frame: Uint8Array, header: MpegFrameHeader): boolean {
  const at = sideInfoEnd(header);
  return ascii(frame, at, 'Xing') || ascii(frame, at, 'Info') || ascii(frame, 36, 'VBRI');
}

/** An ID3v2 tag's whole length when one starts at `at` (undefined: none, or fewer than 10 bytes there). */
function id3v2Length(bytes: Uint8Array, at: number): number | undefined {
  if (at + 10 > bytes.length || !ascii(bytes, at, 'ID3')) return undefined;
  const size =
    (((bytes[at + 6] as number) & 0x7f) << 21) |
    (((bytes[at + 7] as number) & 0x7f) << 14) |
    (((bytes[at + 8] as number) & 0x7f) << 7) |
    ((bytes[at + 9] as number) & 0x7f);
  const footer = ((bytes[at + 5] as number) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/** What the audio frames of one or more parts hold (what the joined file's header says). */
export interface Mp3Summary {
  /** The first audio frame's header (undefined: no frame yet). */
  first: MpegFrameHeader | undefined;
  frames: number;
  /** Bytes of the audio frames. */
  bytes: number;
  /** Every part has the first one's version, layer, sample rate and channel mode. */
  uniform: boolean;
  /** All frames have one bit rate (an "Info" header, as LAME writes for CBR) or not ("Xing"). */
  constantBitrate: boolean;
  /** Byte offset (in the audio frames) of every frame, for the seek table. */
  offsets: number[];
}

export const emptyMp3Summary = (): Mp3Summary => ({
  first: undefined,
  frames: 0,
  bytes: 0,
  uniform: true,
  constantBitrate: true,
  offsets: [],
});

/**
 * One MP3 file's bytes in, its audio frames out: the ID3v2 tag at its start and its Xing/Info/VBRI frame
 * are skipped, and anything that is not a frame (ID3v1/APE tags at the end, junk) is dropped. Counts what
 * it passes into `summary` (shared across the parts of one join).
 */
export class Mp3FrameFilter {
  private pending: Uint8Array = new Uint8Array(0);
  /** Bytes still to skip (an ID3v2 tag longer than what has arrived). */
  private skip = 0;
  private atStart = true;
  private sawFrame = false;

  constructor(readonly summary: Mp3Summary = emptyMp3Summary()) {}

  /** The audio frames complete in what has arrived so far. */
  push(chunk: Uint8Array): Uint8Array {
    let bytes: Uint8Array = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, bytes.length);
      this.skip -= skipped;
      bytes = bytes.subarray(skipped);
    }
    if (this.pending.length > 0) {
      const joined = new Uint8Array(this.pending.length + bytes.length);
      joined.set(this.pending);
      joined.set(bytes, this.pending.length);
      bytes = joined;
    }
    const out: Uint8Array[] = [];
    let at = 0;
    let runStart = -1;
    const closeRun = () => {
      if (runStart >= 0 && at > runStart) out.push(bytes.subarray(runStart, at));
      runStart = -1;
    };
    while (at < bytes.length) {
      if (this.atStart) {
        if (bytes.length - at < 10) break;
        const tag = id3v2Length(bytes, at);
        if (tag !== undefined) {
          if (at + tag > bytes.length) {
            this.skip = at + tag - bytes.length;
            at = bytes.length;
            break;
          }
          at += tag;
          continue;
        }
        this.atStart = false;
      }
      if (bytes.length - at < 4) break;
      const header = parseMpegFrameHeader(bytes, at);
      if (!header || !this.fits(header)) {
        // Not a frame of this stream: dropped a byte at a time until frames resume.
        closeRun();
        at += 1;
        continue;
      }
      if (at + header.length > bytes.length) break;
      if (!this.sawFrame) {
        this.sawFrame = true;
        if (header.layer === 3 && isMp3InfoFrame(bytes.subarray(at, at + header.length), header)) {
          closeRun();
          at += header.length;
          continue;
        }
      }
      this.count(header);
      if (runStart < 0) runStart = at;
      at += header.length;
    }
    closeRun();
    this.pending = at < bytes.length ? bytes.slice(at) : new Uint8Array(0);
    if (out.length === 1) return out[0] as Uint8Array;
    const total = out.reduce((n, b) => n + b.length, 0);
    const merged = new Uint8Array(total);
    let offset = 0;
    for (const b of out) {
      merged.set(b, offset);
      offset += b.length;
    }
    return merged;
  }

  /** The part has ended: what is left is a cut frame or a trailing tag, dropped. */
  end(): void {
    this.pending = new Uint8Array(0);
  }

  /** Frames of this part: the part's own first frame sets what the rest must match (resync guard). */
  private partFirst: MpegFrameHeader | undefined;
  private fits(header: MpegFrameHeader): boolean {
    const ref = this.partFirst;
    if (!ref) return true;
    return (
      header.version === ref.version && header.layer === ref.layer && header.sampleRate === ref.sampleRate
    );
  }

  private count(header: MpegFrameHeader): void {
    const s = this.summary;
    this.partFirst ??= header;
    if (!s.first) s.first = header;
    else {
      if (
        header.version !== s.first.version ||
        header.layer !== s.first.layer ||
        header.sampleRate !== s.first.sampleRate ||
        (header.channelMode === 3) !== (s.first.channelMode === 3)
      )
        s.uniform = false;
      if (header.bitrate !== s.first.bitrate) s.constantBitrate = false;
    }
    s.offsets.push(s.bytes);
    s.frames += 1;
    s.bytes += header.length;
  }
}

/** One part's audio frames, as its chunks arrive (counted into `summary`). */
export async function* mp3AudioFrames(
  chunks: AsyncIterable<Uint8Array>,
  summary: Mp3Summary = emptyMp3Summary(),
): AsyncGenerator<Uint8Array> {
  const filter = new Mp3FrameFilter(summary);
  for await (const chunk of chunks) {
    const frames = filter.push(chunk);
    if (frames.length > 0) yield frames;
  }
  filter.end();
}

/** Counts the audio frames of a part into `summary` (the first pass of a join). */
export async function scanMp3(chunks: AsyncIterable<Uint8Array>, summary: Mp3Summary): Promise<void> {
  for await (const _ of mp3AudioFrames(chunks, summary));
}

const XING_FRAMES = 1;
const XING_BYTES = 2;
const XING_TOC = 4;

/**
 * The header frame for the joined audio `summary` describes: a Layer III frame of the stream's format
 * carrying an "Info" (one bit rate) or "Xing" (several) tag with the frame count, the byte count (this
 * frame included, as LAME and ffmpeg count it) and a 100-entry seek table. Undefined when no header can
 * be right: no frames, not Layer III, or parts of different formats (a frame count then has no one
 * duration).
 */
export function mp3InfoFrame(summary: Mp3Summary): Uint8Array | undefined {
  const first = summary.first;
  if (first?.layer !== 3 || !summary.uniform || summary.frames === 0) return undefined;
  const tagAt = sideInfoEnd(first);
  const needed = tagAt + 4 + 4 + 4 + 4 + 100;
  const table = BITRATES[`${first.version === 1 ? 1 : 2}-3`] as number[];
  let index = first.bitrateIndex;
  while (index < 14 && frameLength(first.version, 3, table[index] as number, first.sampleRate, 0) < needed)
    index += 1;
  const length = frameLength(first.version, 3, table[index] as number, first.sampleRate, 0);
  if (length < needed) return undefined;
  const frame = new Uint8Array(length);
  const versionBits = first.version === 1 ? 3 : first.version === 2 ? 2 : 0;
  const rateIndex = (SAMPLE_RATES[first.version] as number[]).indexOf(first.sampleRate);
  frame[0] = 0xff;
  // Sync, version, Layer III, no CRC.
  frame[1] = 0xe0 | (versionBits << 3) | (1 << 1) | 1;
  frame[2] = (index << 4) | (rateIndex << 2);
  frame[3] = first.channelMode << 6;
  const view = new DataView(frame.buffer);
  const tag = summary.constantBitrate ? 'Info' : 'Xing';
  for (let i = 0; i < 4; i++) frame[tagAt + i] = tag.charCodeAt(i);
  view.setUint32(tagAt + 4, XING_FRAMES | XING_BYTES | XING_TOC);
  view.setUint32(tagAt + 8, summary.frames);
  const total = summary.bytes + length;
  view.setUint32(tagAt + 12, total);
  for (let i = 0; i < 100; i++) {
    const offset = summary.offsets[Math.floor((i / 100) * summary.frames)] ?? 0;
    frame[tagAt + 16 + i] = Math.min(255, Math.floor(((length + offset) / total) * 256));
  }
  return frame;
}
