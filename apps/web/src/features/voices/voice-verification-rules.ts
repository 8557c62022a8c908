import { PVC_CAPTCHA_TTL_SECONDS, VOICE_SAMPLE_MAX_BYTES, type VoiceResponse } from '@parla/contracts';
import { AUDIO_UPLOAD_TYPES_TEXT, formatMegabytes, isAudioUpload } from '../../lib/audio-upload-types';
import { isLibraryCopy } from './voice-rules';

/** The longest take the dialog records: the server listens to the first minute of a recording. */
export const CAPTCHA_RECORDING_MAX_SECONDS = 60;

/**
 * history/voices §5: a voice that must be verified before the server speaks with it (`voice_unusable`
 * until then): verification is required of it and it is not verified yet.
 */
export function needsVoiceVerification(voice: Pick<VoiceResponse, 'voice_verification'>): boolean {
  return voice.voice_verification.requires_verification && !voice.voice_verification.is_verified;
}

/**
 * Whether the user can verify a voice by reading the captcha aloud: one of the workspace's own voices. A
 * library copy is not (`is_owner` false): its samples, and so its verification, stay with its owner.
 */
export function canVerifyVoice(voice: Pick<VoiceResponse, 'is_owner' | 'sharing'>): boolean {
  return voice.is_owner && !isLibraryCopy(voice);
}

const uploadMegabytes = VOICE_SAMPLE_MAX_BYTES / 1024 / 1024;

/**
 * Why a chosen file cannot be sent as the captcha read aloud, or null: one of the §5 audio types, not
 * empty, at most the 11 MB the captcha upload takes (a sample's bound). The server checks what it says
 * and who says it.
 */
export function checkCaptchaRecording(file: { name: string; type: string; size: number }): string | null {
  if (!isAudioUpload(file)) return `${file.name} is not an audio file. Choose ${AUDIO_UPLOAD_TYPES_TEXT}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > VOICE_SAMPLE_MAX_BYTES)
    return `${file.name} is ${formatMegabytes(file.size)}; a recording may be at most ${uploadMegabytes} MB.`;
  return null;
}

/** How far the server's `expires_at_unix` may lie beyond the answer's arrival plus the TTL (rounding). */
const CLOCK_TOLERANCE_MS = 5_000;

/**
 * When a captcha stops being accepted, in this browser's clock (epoch ms): the server's `expires_at_unix`
 * when it is plausible — after the answer arrived and at most the 10-minute TTL later. A browser clock
 * that disagrees with the server's would put it in the past or too far ahead; the TTL is then counted
 * from the answer's arrival instead.
 */
export function captchaDeadline(expiresAtUnix: number, receivedAtMs: number): number {
  const stated = expiresAtUnix * 1000;
  const latest = receivedAtMs + PVC_CAPTCHA_TTL_SECONDS * 1000;
  if (stated <= receivedAtMs || stated > latest + CLOCK_TOLERANCE_MS) return latest;
  return Math.min(stated, latest);
}
