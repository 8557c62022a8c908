import { describe, expect, it } from 'vitest';
import { studioVoiceProblem, voiceNeedsVerification } from './own-voices';

describe('voiceNeedsVerification (history/voices §5)', () => {
  it('needs it when unverified and required, or unverified with the account in probation', () => {
    expect(voiceNeedsVerification({ isVerified: false, requiresVerification: true }, false)).toBe(true);
    expect(voiceNeedsVerification({ isVerified: false, requiresVerification: false }, true)).toBe(true);
    expect(voiceNeedsVerification({ isVerified: false, requiresVerification: false }, false)).toBe(false);
    expect(voiceNeedsVerification({ isVerified: true, requiresVerification: true }, true)).toBe(false);
  });
});

describe('studioVoiceProblem', () => {
  it('refuses live-moderation voices with the exact message, and copied_disabled copies', () => {
    expect(studioVoiceProblem({ sharing: { status: 'copied', live_moderation_enabled: true } })).toBe(
      'Live moderation voices are not available in Studio',
    );
    expect(studioVoiceProblem({ sharing: { status: 'copied_disabled' } })).toMatch(/no longer available/);
    expect(studioVoiceProblem({ sharing: null })).toBeUndefined();
  });
});
