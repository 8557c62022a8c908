import type { SubscriptionTier } from './plans';
import { SUBSCRIPTION_TIERS } from './plans';

/** Every `output_format` of the public text-to-speech API (its OutputFormat type). */
export const OUTPUT_FORMATS = [
  'mp3_22050_32',
  'mp3_24000_48',
  'mp3_44100_32',
  'mp3_44100_64',
  'mp3_44100_96',
  'mp3_44100_128',
  'mp3_44100_192',
  'pcm_8000',
  'pcm_16000',
  'pcm_22050',
  'pcm_24000',
  'pcm_32000',
  'pcm_44100',
  'pcm_48000',
  'ulaw_8000',
  'alaw_8000',
  'opus_48000_32',
  'opus_48000_64',
  'opus_48000_96',
  'opus_48000_128',
  'opus_48000_192',
  'wav_8000',
  'wav_16000',
  'wav_22050',
  'wav_24000',
  'wav_32000',
  'wav_44100',
  'wav_48000',
] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The API's default. */
export const DEFAULT_OUTPUT_FORMAT: OutputFormat = 'mp3_44100_128';

export type AudioCodec = 'mp3' | 'pcm' | 'ulaw' | 'alaw' | 'opus' | 'wav';

export interface OutputFormatSpec {
  codec: AudioCodec;
  sampleRate: number;
  /** kbit/s for mp3 and opus. */
  bitrate?: number;
  contentType: string;
  extension: string;
}

const CONTENT: Record<AudioCodec, { contentType: string; extension: string }> = {
  mp3: { contentType: 'audio/mpeg', extension: 'mp3' },
  pcm: { contentType: 'audio/pcm', extension: 'pcm' },
  ulaw: { contentType: 'audio/basic', extension: 'ulaw' },
  alaw: { contentType: 'audio/x-alaw-basic', extension: 'alaw' },
  opus: { contentType: 'audio/ogg', extension: 'opus' },
  wav: { contentType: 'audio/wav', extension: 'wav' },
};

/** The file extension for an audio content type the server answers (`audio/mpeg` → `mp3`); `audio` if unknown. */
export function extensionOfContentType(contentType: string): string {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return Object.values(CONTENT).find((c) => c.contentType === type)?.extension ?? 'audio';
}

/** What a format name means: `mp3_44100_128` → mp3, 44.1 kHz, 128 kbit/s. */
export function describeOutputFormat(format: OutputFormat): OutputFormatSpec {
  const [codec, rate, bitrate] = format.split('_') as [AudioCodec, string, string | undefined];
  return {
    codec,
    sampleRate: Number(rate),
    ...(bitrate ? { bitrate: Number(bitrate) } : {}),
    ...CONTENT[codec],
  };
}

/**
 * Formats a tier must reach, as the public API documents: mp3 at 192 kbit/s from Creator, 44.1 kHz PCM from
 * Pro (the WAV of the same samples likewise).
 */
const FORMAT_MIN_TIER: Partial<Record<OutputFormat, SubscriptionTier>> = {
  mp3_44100_192: 'creator',
  pcm_44100: 'pro',
  wav_44100: 'pro',
};

/** The tier order of accounts §4; enterprise and trial reach everything. */
function tierRank(tier: SubscriptionTier): number {
  if (tier === 'enterprise' || tier === 'trial') return Number.POSITIVE_INFINITY;
  return SUBSCRIPTION_TIERS.indexOf(tier);
}

/** The tier a format needs when the given tier is not enough, else undefined. */
export function formatNeedsTier(format: OutputFormat, tier: SubscriptionTier): SubscriptionTier | undefined {
  const needed = FORMAT_MIN_TIER[format];
  return needed && tierRank(tier) < tierRank(needed) ? needed : undefined;
}
