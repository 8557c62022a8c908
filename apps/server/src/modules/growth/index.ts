/** The growth module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export { ensureReferralLinkCode, recordSignupReferral, referralLinkCodeOf } from './growth.service';
