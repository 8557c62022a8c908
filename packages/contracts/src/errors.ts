import { z } from 'zod';

/**
 * The error vocabulary of the API: every `detail.status` the server may send, the HTTP status it
 * travels with, and when it is thrown. The server's AppError takes its status from here and the web
 * switches on these codes. (ARCHITECTURE.md "Errors", STYLE.md rule 6.)
 */
export const errorCodes = {
  /** The request body, query or path failed validation against its contract. */
  invalid_request: 422,
  /** A request the server cannot process for a reason other than validation. */
  bad_request: 400,
  /** The request body is not parseable (malformed JSON, wrong content type for the route). */
  malformed_request: 400,
  /** No route answers this method and path. */
  not_found: 404,
  /** The addressed resource does not exist or belongs to another workspace. */
  resource_not_found: 404,
  /** The voice of a speech request does not exist (or belongs to another workspace). */
  voice_not_found: 404,
  /** A pronunciation dictionary, or a version of one, that is not in the caller's workspace. */
  pronunciation_dictionary_not_found: 404,
  /** A PLS lexicon that cannot be taken: not XML, declarations or entities, unknown elements or alphabets. */
  pronunciation_lexicon_invalid: 400,
  /** Too many rules in a dictionary, or too many dictionaries in a workspace. */
  pronunciation_dictionary_limit_reached: 400,
  /** The voice exists but cannot speak: copied_disabled (history/voices §5), banned, or not trained yet. */
  voice_unusable: 400,
  /**
   * A speech request's `language_code` that its model cannot speak (issue 18; the public API's 400 "Model
   * '…' does not support language_code '…'.").
   */
  unsupported_language: 400,
  /** Adding a voice would pass the plan's voice_limit (accounts §9 custom voices). */
  voice_limit_reached: 400,
  /** The plan's voice add-edits this period are used up: round(1.5 × voice_limit + 50) (accounts §9). */
  voice_add_edit_limit_reached: 400,
  /** Creating a Studio project would pass the plan's Studio limit (accounts §9: 3, 20, 1,000, 3,000, 20,000, 20,000 projects). */
  studio_project_limit_reached: 400,
  /** The plan does not include this kind of cloning (instant from Starter, professional from Creator). */
  voice_cloning_not_allowed: 403,
  /** The output format needs a higher plan (mp3 192 kbit/s from Creator, 44.1 kHz PCM from Pro). */
  output_format_not_allowed: 403,
  /** No valid access token or API key was sent. */
  unauthorized: 401,
  /** Sign-in with an email and password that do not match an account (never says which was wrong). */
  invalid_credentials: 401,
  /** Sign-up with an email that already has an account. */
  email_taken: 409,
  /** The `xi-api-key` header holds no valid key (the public API's code and message). */
  invalid_api_key: 401,
  /** A mailed code (verification, password reset, email change…) that is unknown, used or expired. */
  invalid_action_code: 400,
  /** A second-factor or backup code that does not match. */
  invalid_mfa_code: 401,
  /** A sensitive action without a verified sensitive-action code (accounts §4): verify the email first. */
  sensitive_action_verification_required: 403,
  /**
   * The caller was removed from (or locked in) the workspace their token names: refresh the token — it names
   * the workspace they work in now — and do not replay the request there.
   */
  workspace_access_revoked: 401,
  /** An invite or accept would need more seats than the plan has (accounts §9 seats). */
  seat_limit_reached: 403,
  /**
   * A voice (biometric) call by a user in the Illinois region who has not accepted the updated biometric
   * terms yet (accounts §4); `POST /v1/user/accept-bipa-terms` lifts it.
   */
  bipa_terms_required: 403,
  /** The caller is signed in but may not do this. */
  forbidden: 403,
  /** The request conflicts with the current state of the resource. */
  conflict: 409,
  /** Feedback on a history item that has been reviewed already (history/voices §4, §8). */
  feedback_already_reviewed: 409,
  /** A transcript that is still being made (speech to text): ask again once its status is completed. */
  transcript_not_ready: 409,
  /** A transcript whose transcription failed: the message is why. */
  transcript_failed: 422,
  /** A `cloud_storage_url`/`source_url` the server may not fetch (not http(s), a host not allowed, a private address). */
  url_not_allowed: 400,
  /** A `cloud_storage_url`/`source_url` that could not be fetched (an error status, a time-out, too large). */
  url_fetch_failed: 400,
  /**
   * A knowledge-base document that cannot be read: not what its name says, damaged, not UTF-8, or without
   * any text (a scanned PDF).
   */
  document_unreadable: 400,
  /**
   * A translation this installation cannot do: no offline route (Apertium) and no translation server
   * configured for the pair (providers/translation).
   */
  translation_unavailable: 400,
  /** A translation that was attempted and failed: Apertium or the translation server failed or answered wrongly. */
  translation_failed: 502,
  /** A feature this server has turned off (e.g. `FEEDBACK_ENABLED=false`). */
  feature_disabled: 403,
  /** The request body is larger than the route accepts. */
  payload_too_large: 413,
  /** The uploaded content type is not accepted by this route. */
  unsupported_media_type: 415,
  /** Too many requests from this client in the rate-limit window. */
  rate_limited: 429,
  /** The plan's concurrent request limit is reached (headers carry the counts). */
  too_many_concurrent_requests: 429,
  /** The workspace has no credits left for this request. */
  quota_exceeded: 401,
  /** A card was declined, or its authentication failed. */
  card_declined: 402,
  /** The subscription has a payment problem (incomplete, past_due, free_disabled): generation waits for payment. */
  payment_required: 402,
  /** A billing call that does not apply to the subscription as it stands (e.g. upgrade while past due). */
  subscription_conflict: 409,
  /** A discount or promo code that does not exist or has expired. */
  invalid_promocode: 400,
  /** A promo code past its end date (accounts §8 coupon_expired). */
  coupon_expired: 400,
  /** A dependency (database, engine pool) is not available right now. */
  service_unavailable: 503,
  /** Anything unexpected; the message never carries internals. */
  internal_error: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorCodes;

/** One validation problem, in the shape the public API uses (`loc`, `msg`, `type`). */
export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** The body of every error response: `{"detail": {"status", "message", "errors"?}}`. */
export const ErrorResponse = z
  .object({
    detail: z.object({
      status: z.string(),
      message: z.string(),
      errors: z.array(ValidationIssue).optional(),
    }),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Client-side messages of the generic error rules (accounts doc §8). */
export const clientErrorMessages = {
  network: 'Network error',
  generic: 'Something went wrong, please try again later.',
} as const;
