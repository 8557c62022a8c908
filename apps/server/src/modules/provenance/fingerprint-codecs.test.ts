import {
  compareFingerprints,
  FINGERPRINT_MIN_ALIGNED,
  fingerprintAudio,
  type PcmAudio,
  searchFingerprints,
} from '@parla/audio';
import type { OutputFormat } from '@parla/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { encodeAudio } from '../../platform/media/encode-audio';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';

/*
 * The fingerprint of generated audio survives the codecs it is delivered in (issue 26 item 7): flite's
 * speech encoded by the server's own encoder, decoded by its own decoder, as a recording of it would be
 * read. fingerprint.test.ts in @parla/audio covers resampling, gain, noise and parts.
 */

let speech: PcmAudio;
beforeAll(async () => {
  speech = await fliteSpeech('awb', TEN_SECONDS_OF_TEXT);
});

/** The audio through an output format and back, at `rate`, from `fromSeconds` for `seconds`. */
async function roundTrip(audio: PcmAudio, format: OutputFormat, rate: number, fromSeconds = 0, seconds = 60) {
  const part = audio.samples.subarray(
    Math.round(fromSeconds * audio.sampleRate),
    Math.round((fromSeconds + seconds) * audio.sampleRate),
  );
  const encoded = await encodeAudio({ ...audio, samples: part }, format);
  return decodeToPcm(encoded, { sampleRate: rate, maxSeconds: 60 });
}

describe('fingerprints through the codecs', () => {
  it.each([
    ['mp3_22050_32', 16_000],
    ['mp3_44100_128', 44_100],
    ['opus_48000_32', 48_000],
  ] as const)(
    'finds speech sent as %s in what decodes at %i Hz, whole and a 3 s part',
    async (format, rate) => {
      const reference = fingerprintAudio(speech);
      const whole = compareFingerprints(searchFingerprints(await roundTrip(speech, format, rate)), reference);
      expect(whole.alignedHashes).toBeGreaterThan(0.3 * reference.hashes.length);
      const part = compareFingerprints(
        searchFingerprints(await roundTrip(speech, format, rate, 3.37, 3)),
        reference,
      );
      expect(part.alignedHashes).toBeGreaterThanOrEqual(FINGERPRINT_MIN_ALIGNED);
      // Codecs add a little delay at the start (MP3's encoder padding): the part is placed within it.
      expect(Math.abs(part.offsetSeconds - 3.37)).toBeLessThan(0.1);
    },
  );

  it('does not find it in another voice reading the same text, sent as MP3', async () => {
    const other = await fliteSpeech('slt', TEN_SECONDS_OF_TEXT);
    const match = compareFingerprints(
      searchFingerprints(await roundTrip(other, 'mp3_44100_128', 44_100)),
      fingerprintAudio(speech),
    );
    expect(match.alignedHashes).toBeLessThan(FINGERPRINT_MIN_ALIGNED);
  });
});
