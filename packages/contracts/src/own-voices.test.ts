import { describe, expect, it } from 'vitest';
import { voiceNeedsVerification } from './own-voices';

describe('voiceNeedsVerification (history/voices §5)', () => {
  it('needs it when unverified and required, or unverified with the account in probation', () => {
    expect(voiceNeedsVerification({ isVerified: false, requiresVerification: true }, false)).toBe(true);
    expect(voiceNeedsVerification({ isVerified: false, requiresVerification: false }, true)).toBe(true);
    expect(voiceNeedsVerification({ isVerified: false, requiresVerification: false }, false)).toBe(false);
    expect(voiceNeedsVerification({ isVerified: true, requiresVerification: true }, true)).toBe(false);
  });
});
