import {
  ACCOUNT_ACTION_MODES,
  type AccountActionMode,
  type EmailActionError,
  toSameOriginPath,
} from '@parla/contracts';
import { isHttpError } from '../../lib/http-error';

/** The landing page's query (accounts §2 "Account-action landing page"). */
export interface AccountActionParams {
  mode: string | null;
  /** `verificationCode` or `oobCode`. */
  code: string | null;
  continueUrl: string | null;
  lang: string;
  userId: string | null;
  newUser: string | null;
  internalCode: string | null;
}

export function parseAccountActionParams(search: URLSearchParams): AccountActionParams {
  return {
    mode: search.get('mode'),
    code: search.get('verificationCode') ?? search.get('oobCode'),
    continueUrl: search.get('continueUrl'),
    lang: search.get('lang') || 'en',
    userId: search.get('userId'),
    newUser: search.get('newUser'),
    internalCode: search.get('internalCode') ?? search.get('sensitiveActionVerificationCode'),
  };
}

export function isAccountActionMode(mode: string | null): mode is AccountActionMode {
  return (ACCOUNT_ACTION_MODES as readonly (string | null)[]).includes(mode);
}

/** accounts §8 "Unknown account-action mode": an exception is raised; the error page says what went wrong. */
export class UnknownAccountActionError extends Error {
  constructor(readonly mode: string | null) {
    super(mode ? `Unknown account action "${mode}".` : 'The link has no account action.');
    this.name = 'UnknownAccountActionError';
  }
}

/** accounts §5 "Email-action results": invalid code, too many requests, anything else. */
export function toEmailActionError(error: unknown): EmailActionError {
  if (isHttpError(error)) {
    if (error.status === 429) return 'tooManyAttempts';
    if (error.errorType === 'invalid_action_code') return 'invalidActionCode';
  }
  return 'unknownError';
}

/**
 * Where closing a dialog goes (accounts §4): the `continueUrl` with `internalCode` and `newUser` appended.
 * Only a page of this site: any other URL is dropped (no open redirect through an emailed link).
 */
export function continueTarget(params: AccountActionParams, origin: string): string | undefined {
  const path = toSameOriginPath(params.continueUrl, origin);
  if (!path) return undefined;
  const url = new URL(path, origin);
  if (params.internalCode) url.searchParams.set('internalCode', params.internalCode);
  if (params.newUser) url.searchParams.set('newUser', params.newUser);
  return `${url.pathname}${url.search}${url.hash}`;
}
