import {
  type AnalyticsConsentChoice,
  bipaTerms,
  type ConsentStateResponse,
  isInBipaRegion,
  isInCcpaOptOutState,
  type TermsAgreedTo,
  type TermsName,
  type TrainingOptOutResponse,
  termsAgreedToOf,
  trainingOptOutMessages,
} from '@parla/contracts';
import { type Clock, toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import { requireUser } from '../users';
import type { UserRow } from '../users/users.tables';
import { getMemberRole, isWorkspaceAdmin } from '../workspaces';
import { toConsentState, toTrainingOptOut } from './consent.present';
import {
  getTrainingOptOut,
  recordGpcOptOut,
  setAnalyticsConsent,
  setBipaTermsAccepted,
  setCcpaOptOut,
  setGeoLocationIfUnknown,
  setTermsAgreed,
  setTrainingOptOut,
} from './consent.store';
import { type GeoLookup, lookupGeoLocation } from './geo-lookup';

export interface ConsentDeps {
  db: Db;
  clock: Clock;
  /** The offline IP-to-location lookup (geo-lookup.ts). */
  geo: GeoLookup;
}

/** The consent rules' parts of the app's dependencies, with the offline location lookup. */
export function consentDepsOf(deps: { database: { db: Db }; clock: Clock }): ConsentDeps {
  return { db: deps.database.db, clock: deps.clock, geo: lookupGeoLocation };
}

/** What the consent rules read from a request: its client address and whether it carries `Sec-GPC: 1`. */
export interface ConsentRequest {
  ip: string;
  gpc: boolean;
}

/**
 * Fills users.geo_location from the request's address while it is unknown (accounts §3 geo_location); a
 * known location is never replaced, and an address the database cannot place leaves it unknown.
 */
export async function ensureGeoLocation(deps: ConsentDeps, user: UserRow, ip: string): Promise<UserRow> {
  if (user.geoLocation) return user;
  const geo = await deps.geo(ip);
  if (!geo) return user;
  return (await setGeoLocationIfUnknown(deps.db, user.id, geo)) ?? user;
}

/** The user, located, with a Global Privacy Control signal applied (accounts §4 CCPA opt-out). */
async function loadUser(deps: ConsentDeps, userId: string, request: ConsentRequest): Promise<UserRow> {
  let user = await ensureGeoLocation(deps, await requireUser(deps.db, userId), request.ip);
  if (request.gpc && !user.ccpaOptOut && isInCcpaOptOutState(user.geoLocation)) {
    await recordGpcOptOut(deps.db, user.id);
    user = { ...user, ccpaOptOut: true };
  }
  return user;
}

/** `GET /v1/user/consent`. */
export async function getConsentState(
  deps: ConsentDeps,
  userId: string,
  request: ConsentRequest,
): Promise<ConsentStateResponse> {
  return toConsentState(await loadUser(deps, userId, request));
}

/**
 * `POST /v1/user/consent`: the banner's choice, and the CCPA opt-out the app sends (`optOutCCPA`). A person's
 * own opt-out is kept wherever they are; only the automatic GPC signal is limited to the listed states.
 */
export async function updateConsent(
  deps: ConsentDeps,
  userId: string,
  request: ConsentRequest,
  input: { analytics_consent?: AnalyticsConsentChoice | undefined; optOutCCPA?: true | undefined },
): Promise<ConsentStateResponse> {
  let user = await loadUser(deps, userId, request);
  if (input.analytics_consent) {
    await setAnalyticsConsent(deps.db, user.id, input.analytics_consent);
    user = { ...user, analyticsConsent: input.analytics_consent };
  }
  if (input.optOutCCPA && !user.ccpaOptOut) {
    await setCcpaOptOut(deps.db, user.id);
    user = { ...user, ccpaOptOut: true };
  }
  return toConsentState(user);
}

/** A GPC header on any signed-in request records the opt-out for a user in a listed state (accounts §4). */
export async function applyGlobalPrivacyControl(db: Db, userId: string): Promise<void> {
  await recordGpcOptOut(db, userId);
}

/** accounts §7 accept-bipa-terms. */
export async function acceptBipaTerms(deps: ConsentDeps, userId: string): Promise<void> {
  const user = await requireUser(deps.db, userId);
  await setBipaTermsAccepted(deps.db, user.id, deps.clock.now());
}

/**
 * accounts §4 biometric terms: a user in the Illinois region must accept the updated terms before any voice
 * (biometric) call; the location is looked up first when still unknown.
 */
export async function assertBipaTermsAccepted(deps: ConsentDeps, userId: string, ip: string): Promise<void> {
  const user = await ensureGeoLocation(deps, await requireUser(deps.db, userId), ip);
  if (isInBipaRegion(user.geoLocation) && !user.acceptedBipaTerms) {
    throw new AppError('bipa_terms_required', bipaTerms.required);
  }
}

/** Records agreement to one named set of terms (accounts §3 terms_agreed_to). */
export async function agreeToTerms(
  deps: ConsentDeps,
  userId: string,
  terms: TermsName,
): Promise<TermsAgreedTo> {
  const user = await requireUser(deps.db, userId);
  const stored = await setTermsAgreed(deps.db, user.id, terms, toUnixSeconds(deps.clock.now()));
  return termsAgreedToOf(stored ?? {});
}

/**
 * Whether the caller holds the workspace's admin rights (admin and editor roles; accounts §1, §6). A former
 * member is refused as getUserDocument refuses them.
 */
async function callerIsAdmin(db: Db, principal: { userId: string; workspaceId: string }): Promise<boolean> {
  if (!(await getMemberRole(db, principal.workspaceId, principal.userId))) {
    throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  }
  return isWorkspaceAdmin(db, principal.workspaceId, principal.userId);
}

/** accounts §3 Workspace.training_opt_out and whether the caller may change it (§6). */
export async function getWorkspaceTrainingOptOut(
  db: Db,
  principal: { userId: string; workspaceId: string },
): Promise<TrainingOptOutResponse> {
  const canChange = await callerIsAdmin(db, principal);
  const row = await getTrainingOptOut(db, principal.workspaceId);
  if (!row) throw notFound('The workspace');
  return toTrainingOptOut(row, canChange);
}

/** accounts §6: only workspace admins (admin and editor roles) may change the data-training opt-out. */
export async function updateWorkspaceTrainingOptOut(
  deps: { db: Db; clock: Clock },
  principal: { userId: string; workspaceId: string },
  value: boolean,
): Promise<TrainingOptOutResponse> {
  if (!(await callerIsAdmin(deps.db, principal))) {
    throw new AppError('forbidden', trainingOptOutMessages.adminsOnly);
  }
  const row = await setTrainingOptOut(deps.db, principal.workspaceId, value, deps.clock.now());
  if (!row) throw notFound('The workspace');
  return toTrainingOptOut(row, true);
}
