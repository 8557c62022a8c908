import { PVC_CAPTCHA_TTL_SECONDS, VOICE_SAMPLE_MAX_BYTES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { makeOwnVoice } from '../../test/voices-fixture';
import {
  canVerifyVoice,
  captchaDeadline,
  checkCaptchaRecording,
  needsVoiceVerification,
} from './voice-verification-rules';

const verification = (requires: boolean, verified: boolean) => ({
  requires_verification: requires,
  is_verified: verified,
  verification_failures: [],
  verification_attempts_count: 0,
});

describe('needsVoiceVerification (history/voices §5)', () => {
  it('needs it only when verification is required and not done', () => {
    expect(needsVoiceVerification({ voice_verification: verification(true, false) })).toBe(true);
    expect(needsVoiceVerification({ voice_verification: verification(true, true) })).toBe(false);
    expect(needsVoiceVerification({ voice_verification: verification(false, false) })).toBe(false);
  });
});

describe('canVerifyVoice', () => {
  it('takes the workspace’s own voices, not library copies', () => {
    expect(canVerifyVoice(makeOwnVoice())).toBe(true);
    expect(canVerifyVoice(makeOwnVoice({ category: 'generated' }))).toBe(true);
    expect(canVerifyVoice(makeOwnVoice({ is_owner: false, sharing: { status: 'copied' } }))).toBe(false);
    expect(canVerifyVoice(makeOwnVoice({ is_owner: true, sharing: { status: 'copied_disabled' } }))).toBe(
      false,
    );
    expect(canVerifyVoice(makeOwnVoice({ is_owner: false }))).toBe(false);
  });
});

describe('checkCaptchaRecording', () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  it('takes any §5 audio, a browser recording included, up to 11 MB', () => {
    expect(checkCaptchaRecording(file('take.webm', 'audio/webm;codecs=opus'))).toBeNull();
    expect(checkCaptchaRecording(file('take.ogg', ''))).toBeNull();
    expect(checkCaptchaRecording(file('notes.txt', 'text/plain'))).toMatch(
      /^notes\.txt is not an audio file/,
    );
    expect(checkCaptchaRecording(file('empty.wav', 'audio/wav', 0))).toBe('empty.wav is empty.');
    expect(checkCaptchaRecording(file('long.wav', 'audio/wav', VOICE_SAMPLE_MAX_BYTES + 1))).toBe(
      'long.wav is 11.0 MB; a recording may be at most 11 MB.',
    );
  });
});

describe('captchaDeadline', () => {
  const ttl = PVC_CAPTCHA_TTL_SECONDS * 1000;
  const received = 1_750_000_000_000;

  it('keeps the server’s expiry when the clocks agree', () => {
    const stated = received / 1000 + PVC_CAPTCHA_TTL_SECONDS - 1;
    expect(captchaDeadline(stated, received)).toBe(stated * 1000);
    // Whole seconds and a little latency: never later than the TTL after arrival.
    expect(captchaDeadline(received / 1000 + PVC_CAPTCHA_TTL_SECONDS + 2, received)).toBe(received + ttl);
  });

  it('counts the TTL from arrival when the browser clock disagrees with the server’s', () => {
    // The browser runs an hour fast: the stated expiry looks past.
    expect(captchaDeadline(received / 1000 - 3000, received)).toBe(received + ttl);
    // The browser runs an hour slow: the stated expiry looks too far ahead.
    expect(captchaDeadline(received / 1000 + 3600 + PVC_CAPTCHA_TTL_SECONDS, received)).toBe(received + ttl);
  });
});
