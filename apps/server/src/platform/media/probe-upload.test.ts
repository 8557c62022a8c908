import fs from 'node:fs/promises';
import os from 'node:os';
import { encodeWav } from '@parla/audio';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeMediaFile } from '../../test/test-signals';
import {
  checkDecodedLength,
  classifyUpload,
  measureDecodedSeconds,
  type ProbedMedia,
  type ProbeUploadOptions,
  parseFfprobe,
  probeUpload,
  probeUploadFile,
  UPLOAD_DEMUXERS,
  UPLOAD_FORMATS,
  type UploadProbe,
  UploadRejectedError,
} from './probe-upload';
import { withInputFile } from './run-media-tool';

/** Seeded pseudo-random bytes (xorshift32). */
function randomBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let state = seed * 2654435761 || 1;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

const AUDIO = ['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=16000:duration=2'];
const VIDEO = ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=2'];
const AV = [...VIDEO, ...AUDIO, '-shortest'];

/** Each §5 type made by ffmpeg: the name a user would give it, the output arguments, what probe says. */
const SAMPLES = [
  { name: 'a.aac', args: [...AUDIO, '-c:a', 'aac', '-f', 'adts'], format: 'aac', kind: 'audio' },
  { name: 'a.aiff', args: [...AUDIO, '-f', 'aiff'], format: 'aiff', kind: 'audio' },
  { name: 'a.ogg', args: [...AUDIO, '-c:a', 'libvorbis'], format: 'ogg', kind: 'audio' },
  { name: 'a.opus', args: [...AUDIO, '-c:a', 'libopus'], format: 'ogg', kind: 'audio' },
  { name: 'a.mp3', args: [...AUDIO, '-c:a', 'libmp3lame'], format: 'mp3', kind: 'audio' },
  { name: 'a.mp2', args: [...AUDIO, '-c:a', 'mp2', '-f', 'mp2'], format: 'mp3', kind: 'audio' },
  { name: 'a.wav', args: [...AUDIO], format: 'wav', kind: 'audio' },
  { name: 'a.webm', args: [...AUDIO, '-c:a', 'libopus'], format: 'matroska,webm', kind: 'audio' },
  { name: 'a.flac', args: [...AUDIO], format: 'flac', kind: 'audio' },
  { name: 'a.m4a', args: [...AUDIO, '-c:a', 'aac'], format: 'mov,mp4,m4a,3gp,3g2,mj2', kind: 'audio' },
  { name: 'a.mp4', args: [...AUDIO, '-c:a', 'aac'], format: 'mov,mp4,m4a,3gp,3g2,mj2', kind: 'audio' },
  {
    name: 'cover.mp3',
    args: [...AUDIO, ...VIDEO, '-map', '0:a', '-map', '1:v', '-frames:v', '1', '-c:v', 'png'],
    format: 'mp3',
    kind: 'audio',
    extra: ['-disposition:v', 'attached_pic'],
  },
  {
    name: 'v.mp4',
    args: [...AV, '-c:v', 'libx264', '-c:a', 'aac'],
    format: 'mov,mp4,m4a,3gp,3g2,mj2',
    kind: 'video',
  },
  {
    name: 'v.mov',
    args: [...AV, '-c:v', 'mpeg4', '-c:a', 'aac'],
    format: 'mov,mp4,m4a,3gp,3g2,mj2',
    kind: 'video',
  },
  {
    name: 'v.3gp',
    args: [...AV, '-c:v', 'mpeg4', '-s', '176x144', '-c:a', 'aac', '-ac', '1'],
    format: 'mov,mp4,m4a,3gp,3g2,mj2',
    kind: 'video',
  },
  { name: 'v.avi', args: [...AV, '-c:v', 'mpeg4', '-c:a', 'libmp3lame'], format: 'avi', kind: 'video' },
  {
    name: 'v.mkv',
    args: [...AV, '-c:v', 'libx264', '-c:a', 'libopus'],
    format: 'matroska,webm',
    kind: 'video',
  },
  {
    name: 'v.webm',
    args: [...AV, '-c:v', 'libvpx', '-c:a', 'libopus'],
    format: 'matroska,webm',
    kind: 'video',
  },
  { name: 'v.wmv', args: [...AV, '-c:v', 'wmv2', '-c:a', 'wmav2'], format: 'asf', kind: 'video' },
  {
    name: 'v.flv',
    args: [...AV, '-c:v', 'flv', '-c:a', 'libmp3lame', '-ar', '22050'],
    format: 'flv',
    kind: 'video',
  },
  { name: 'v.mpg', args: [...AV, '-c:v', 'mpeg2video', '-c:a', 'mp2'], format: 'mpeg', kind: 'video' },
  {
    name: 'silent.mp4',
    args: [...VIDEO, '-c:v', 'libx264'],
    format: 'mov,mp4,m4a,3gp,3g2,mj2',
    kind: 'video',
  },
] as const;

const files = new Map<string, Buffer>();

beforeAll(async () => {
  for (const sample of SAMPLES) {
    files.set(
      sample.name,
      await makeMediaFile(sample.name, [...sample.args, ...('extra' in sample ? sample.extra : [])]),
    );
  }
  files.set('a.wma', await makeMediaFile('a.wma', [...AUDIO, '-c:a', 'wmav2', '-f', 'asf']));
  files.set('image.png', await makeMediaFile('image.png', [...VIDEO, '-frames:v', '1']));
}, 120_000);

const limits = { maxBytes: 50 * 1024 * 1024, maxSeconds: 600 };

/** The refusal a probe ends in (fails the test when it resolves). */
async function rejection(
  bytes: Uint8Array,
  options: ProbeUploadOptions = limits,
): Promise<UploadRejectedError> {
  try {
    await probeUpload(bytes, options);
  } catch (error) {
    if (error instanceof UploadRejectedError) return error;
    throw error;
  }
  throw new Error('The probe accepted it.');
}

/** Temporary upload folders left behind (the probe always deletes its own). */
const leftovers = async () =>
  (await fs.readdir(os.tmpdir())).filter((name) => name.startsWith('parla-upload-'));

describe('probeUpload', () => {
  it.each(SAMPLES)('$name is $kind in $format', async (sample) => {
    const probe = await probeUpload(files.get(sample.name) as Buffer, limits);
    expect(probe.format).toBe(sample.format);
    expect(probe.kind).toBe(sample.kind);
    expect(probe.durationSeconds).toBeGreaterThan(1.9);
    expect(probe.durationSeconds).toBeLessThan(2.2);
    expect(probe.hasVideo).toBe(sample.kind === 'video');
    if (sample.name === 'silent.mp4') {
      expect(probe.hasAudio).toBe(false);
    } else {
      expect(probe.hasAudio).toBe(true);
      expect(probe.sampleRate).toBeGreaterThanOrEqual(16_000);
      expect(probe.channels).toBe(1);
      expect(probe.audioCodec).toBeTruthy();
    }
  });

  it('reads the codec, rate and channels of the first audio stream', async () => {
    const wav = encodeWav({ sampleRate: 22_050, channels: 2, samples: new Int16Array(22_050 * 2) });
    const probe = await probeUpload(wav, limits);
    expect(probe).toMatchObject({ format: 'wav', audioCodec: 'pcm_s16le', sampleRate: 22_050, channels: 2 });
    expect(probe.durationSeconds).toBeCloseTo(1, 3);
    expect(probe.bytes).toBe(wav.length);
  });

  it('goes by the content, not the name: a PNG named .mp3 is refused', async () => {
    // The bytes carry no name at all: the probe's own file has no extension either.
    const error = await rejection(files.get('image.png') as Buffer);
    expect(error.reason).toBe('unsupported_type');
    expect(error.code).toBe('unsupported_media_type');
    expect(error.status).toBe(415);
    expect(error.message).toMatch(/not a supported audio or video type.*png/);
  });

  it('refuses audio in a container §5 does not list (WMA)', async () => {
    const error = await rejection(files.get('a.wma') as Buffer);
    expect(error.reason).toBe('unsupported_type');
    expect(error.message).toContain('"asf"');
  });

  it('refuses an empty file', async () => {
    const error = await rejection(new Uint8Array(0));
    expect(error.reason).toBe('empty');
    expect(error.message).toBe('The file is empty.');
  });

  it.each([
    [100, 1],
    [5000, 2],
    [65_536, 3],
    [1_000_000, 4],
  ])('refuses %i random bytes', async (size, seed) => {
    const bytes = randomBytes(size, seed);
    const error = await rejection(bytes);
    expect(['not_media', 'unsupported_type']).toContain(error.reason);
    expect(error.status).toBe(415);
  });

  it('refuses a zip and a text file', async () => {
    const zip = zipSync({ 'voice.mp3': files.get('a.mp3') as Buffer });
    expect((await rejection(zip)).reason).toBe('not_media');
    expect((await rejection(Buffer.from('Hello, this is not a recording.\n'.repeat(50)))).reason).toBe(
      'not_media',
    );
  });

  it('refuses a playlist pointing at another file, and never reads it', async () => {
    // As an HLS playlist ffmpeg would open the file it names; the demuxer list keeps it from trying.
    const playlist = Buffer.from(
      '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:2,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n',
    );
    const error = await rejection(playlist);
    expect(error.reason).toBe('unsupported_type');
    expect(error.message).toContain('"hls"');
    const concat = await rejection(Buffer.from("ffconcat version 1.0\nfile '/etc/hostname'\n"));
    expect(concat.reason).toBe('unsupported_type');
    expect(concat.message).toContain('"concat"');
  });

  it('refuses a truncated MP4 (its index is cut off) and reads what is left of a truncated WAV or MP3', async () => {
    const mp4 = files.get('v.mp4') as Buffer;
    // ffmpeg writes the index (moov) at the end: without it there is nothing to read.
    expect((await rejection(mp4.subarray(0, Math.floor(mp4.length / 2)))).reason).toBe('not_media');
    expect((await rejection(mp4.subarray(0, 100))).reason).toBe('not_media');
    const wav = files.get('a.wav') as Buffer;
    const shortWav = await probeUpload(wav.subarray(0, Math.floor(wav.length / 2)), limits);
    expect(shortWav.kind).toBe('audio');
    const mp3 = files.get('a.mp3') as Buffer;
    const shortMp3 = await probeUpload(mp3.subarray(0, Math.floor(mp3.length / 2)), limits);
    expect(shortMp3.format).toBe('mp3');
    // Headers alone: refused, never a crash.
    expect((await rejection(wav.subarray(0, 20))).reason).toBe('not_media');
  });

  it('applies the size and duration limits', async () => {
    const wav = files.get('a.wav') as Buffer;
    const tooLarge = await rejection(wav, { maxBytes: 1000, maxSeconds: 600 });
    expect(tooLarge.reason).toBe('too_large');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.message).toBe('The file is larger than 1000 bytes.');
    const tooLong = await rejection(wav, { maxBytes: 10_000_000, maxSeconds: 1 });
    expect(tooLong.reason).toBe('too_long');
    expect(tooLong.message).toBe('The recording is 2 s long; at most 1 s is accepted.');
  });

  it('kills ffprobe past its time bound', async () => {
    const error = await rejection(files.get('v.mkv') as Buffer, { ...limits, timeoutMs: 1 });
    expect(error.reason).toBe('timed_out');
  });

  it('deletes its temporary file whatever happens', async () => {
    const before = await leftovers();
    await Promise.allSettled([
      probeUpload(files.get('a.flac') as Buffer, limits),
      probeUpload(files.get('image.png') as Buffer, limits),
      probeUpload(Buffer.from('nothing'), limits),
    ]);
    expect(await leftovers()).toEqual(before);
  });
});

describe('classifyUpload', () => {
  const media = (format: string, hasAudio: boolean, hasVideo: boolean): ProbedMedia => ({
    format,
    durationSeconds: 1,
    hasAudio,
    hasVideo,
    audioCodec: undefined,
    sampleRate: undefined,
    channels: undefined,
    videoCodec: undefined,
  });

  it('maps every container onto the §5 lists', () => {
    expect(classifyUpload(media('mov,mp4,m4a,3gp,3g2,mj2', true, false))).toBe('audio');
    expect(classifyUpload(media('mov,mp4,m4a,3gp,3g2,mj2', true, true))).toBe('video');
    expect(classifyUpload(media('matroska,webm', true, false))).toBe('audio');
    expect(classifyUpload(media('matroska,webm', false, true))).toBe('video');
    expect(classifyUpload(media('ogg', true, true))).toBe('audio'); // Theora is set aside, Vorbis kept
    expect(classifyUpload(media('asf', true, false))).toBeUndefined(); // WMA
    expect(classifyUpload(media('asf', true, true))).toBe('video');
    expect(classifyUpload(media('wav', false, false))).toBeUndefined();
    expect(classifyUpload(media('png_pipe', false, true))).toBeUndefined();
    expect(classifyUpload(media('mpegts', true, true))).toBeUndefined();
  });

  it('whitelists exactly the demuxers of the table', () => {
    expect(UPLOAD_DEMUXERS.split(',').sort()).toEqual(
      [...new Set(Object.keys(UPLOAD_FORMATS).flatMap((f) => f.split(',')))].sort(),
    );
    expect(UPLOAD_DEMUXERS).not.toMatch(/hls|concat|image2|lavfi/);
  });
});

describe('parseFfprobe', () => {
  it('does not count cover art as video, and takes a stream duration when the container has none', () => {
    const probe = parseFfprobe(
      JSON.stringify({
        streams: [
          { codec_type: 'audio', codec_name: 'mp3', sample_rate: '44100', channels: 2, duration: '3.5' },
          { codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
        ],
        format: { format_name: 'mp3', duration: 'N/A' },
      }),
    );
    expect(probe).toEqual({
      format: 'mp3',
      durationSeconds: 3.5,
      hasAudio: true,
      hasVideo: false,
      audioCodec: 'mp3',
      sampleRate: 44_100,
      channels: 2,
      videoCodec: undefined,
    });
  });

  it('gives undefined for output that is not ffprobe JSON', () => {
    expect(parseFfprobe('')).toBeUndefined();
    expect(parseFfprobe('{"streams":[]}')).toBeUndefined();
    expect(parseFfprobe('{"format":{"format_name":1}}')).toBeUndefined();
  });
});

/** The probe of some bytes and the seconds of sound they decode to (or the refusal). */
function decodedLength(bytes: Uint8Array): Promise<{ probe: UploadProbe; seconds: number }> {
  return withInputFile(bytes, async (file) => {
    const probe = await probeUploadFile(file, bytes.byteLength, limits);
    return { probe, seconds: await measureDecodedSeconds(file, probe, { maxSeconds: 600 }) };
  });
}

async function cutShort(bytes: Uint8Array): Promise<UploadRejectedError> {
  const error = await decodedLength(bytes).catch((e: unknown) => e);
  if (!(error instanceof UploadRejectedError)) throw new Error(`not refused: ${JSON.stringify(error)}`);
  return error;
}

describe('measureDecodedSeconds (issue 26 item 9: bill what decodes)', () => {
  it.each(SAMPLES.filter((s) => s.name !== 'silent.mp4'))('$name decodes to its 2 s', async (sample) => {
    const { seconds } = await decodedLength(files.get(sample.name) as Buffer);
    expect(seconds).toBeGreaterThan(1.9);
    expect(seconds).toBeLessThan(2.2);
  });

  it('refuses a file whose header says more than decodes: the first 1.5 KB of an MP3, the first 30% of a FLAC, WebM or M4A', async () => {
    const mp3 = await cutShort((files.get('a.mp3') as Buffer).subarray(0, 1536));
    expect([mp3.reason, mp3.code, mp3.status]).toEqual(['cut_short', 'bad_request', 400]);
    expect(mp3.message).toMatch(
      /^The file is cut short or damaged: it says it lasts 2\.\d s, but only 0\.\d s/,
    );
    // Ten seconds each; the M4A with its index (moov) first, as streaming encoders write it.
    const tenSeconds = ['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=16000:duration=10'];
    for (const [name, args] of [
      ['t.flac', []],
      ['t.webm', ['-c:a', 'libopus']],
      ['t.m4a', ['-c:a', 'aac', '-movflags', '+faststart']],
    ] as const) {
      const whole = await makeMediaFile(name, [...tenSeconds, ...args]);
      const error = await cutShort(whole.subarray(0, Math.floor(whole.length * 0.3)));
      expect([name, error.reason]).toEqual([name, 'cut_short']);
    }
  });

  it('measures, without refusing, what only an estimate states: a cut WAV, a VBR MP3 without a Xing frame', async () => {
    const wav = files.get('a.wav') as Buffer;
    const half = await decodedLength(wav.subarray(0, 44 + 32_000));
    expect(half.seconds).toBeCloseTo(1, 1);
    // Quiet noise, then a loud tone: the first frames' bitrate makes ffprobe's estimate far too short.
    const vbr = await makeMediaFile('vbr.mp3', [
      ...['-f', 'lavfi', '-i', 'anoisesrc=d=10:a=0.02', '-f', 'lavfi', '-i', 'sine=f=300:d=10'],
      ...['-filter_complex', '[0][1]concat=n=2:v=0:a=1', '-ac', '1', '-ar', '44100'],
      ...['-c:a', 'libmp3lame', '-q:a', '0', '-write_xing', '0'],
    ]);
    const measured = await decodedLength(vbr);
    expect(measured.probe.durationEstimated).toBe(true);
    expect(Math.abs((measured.probe.durationSeconds ?? 0) - 20)).toBeGreaterThan(1);
    expect(measured.seconds).toBeCloseTo(20, 0);
  });

  it('refuses only a shortfall past a second or 5%, and never on an estimate or a video’s own length', () => {
    const probe = (over: Partial<UploadProbe>): UploadProbe => ({
      format: 'mp3',
      kind: 'audio',
      bytes: 1,
      durationSeconds: 7.3,
      durationEstimated: false,
      audioDurationSeconds: undefined,
      hasAudio: true,
      hasVideo: false,
      audioCodec: 'mp3',
      sampleRate: 44_100,
      channels: 1,
      videoCodec: undefined,
      ...over,
    });
    const refused = (p: UploadProbe, decoded: number) => {
      try {
        checkDecodedLength(p, decoded);
        return false;
      } catch (error) {
        return error instanceof UploadRejectedError && error.reason === 'cut_short';
      }
    };
    expect(refused(probe({}), 6.4)).toBe(false);
    expect(refused(probe({}), 6.2)).toBe(true);
    expect(refused(probe({}), 0.05)).toBe(true);
    expect(refused(probe({ durationSeconds: 600 }), 575)).toBe(false);
    expect(refused(probe({ durationSeconds: 600 }), 560)).toBe(true);
    expect(refused(probe({ durationEstimated: true }), 0.05)).toBe(false);
    expect(refused(probe({ durationSeconds: undefined }), 0.05)).toBe(false);
    // A video's container length may be its picture's: only its audio stream's own length counts.
    expect(refused(probe({ kind: 'video', durationSeconds: 60 }), 40)).toBe(false);
    expect(refused(probe({ kind: 'video', durationSeconds: 60, audioDurationSeconds: 60 }), 40)).toBe(true);
    // More sound than stated is billed as it decodes, not refused.
    expect(refused(probe({}), 30)).toBe(false);
  });
});
