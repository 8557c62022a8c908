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
import { holdsAdminRights, memberRoleOf } from '../workspaces';
import { toConsentState, toTrainingOptOut, toUserConsent, type UserConsent } from './consent.present';
import {
  findUserConsent,
  getTrainingOptOut,
  recordGpcOptOut,
  saveUserConsent,
  setBipaTermsAccepted,
  setGeoLocationIfUnknown,
  setTermsAgreed,
  setTrainingOptOut,
} from './consent.store';
import type { GeoLocation, UserConsentRow } from './consent.tables';
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

/** A user's consents with the defaults of nothing chosen (no row: nothing chosen, no location known). */
type Consent = Omit<UserConsentRow, 'userId'>;

const NOTHING_CHOSEN: Consent = {
  ccpaOptOut: false,
  geoLocation: null,
  analyticsConsent: null,
  acceptedBipaTerms: false,
  bipaTermsAcceptedAt: null,
  termsAgreedTo: {},
};

async function consentOf(db: Db, userId: string): Promise<Consent> {
  return (await findUserConsent(db, userId)) ?? NOTHING_CHOSEN;
}

/**
 * Fills the user's geo_location from the request's address while it is unknown (accounts §3); a known
 * location is never replaced, and an address the database cannot place leaves it unknown.
 */
export async function ensureGeoLocation(deps: ConsentDeps, userId: string, ip: string): Promise<Consent> {
  const consent = await consentOf(deps.db, userId);
  if (consent.geoLocation) return consent;
  const geo = await deps.geo(ip);
  if (!geo) return consent;
  return (await setGeoLocationIfUnknown(deps.db, userId, geo)) ?? consent;
}

/** The user's consents, located, with a Global Privacy Control signal applied (accounts §4 CCPA opt-out). */
async function loadConsent(deps: ConsentDeps, userId: string, request: ConsentRequest): Promise<Consent> {
  await requireUser(deps.db, userId);
  const consent = await ensureGeoLocation(deps, userId, request.ip);
  if (request.gpc && !consent.ccpaOptOut && isInCcpaOptOutState(consent.geoLocation)) {
    await recordGpcOptOut(deps.db, userId);
    return { ...consent, ccpaOptOut: true };
  }
  return consent;
}

/** What `GET /v1/user` shows of a user's consents (accounts §3). */
export async function userConsentOf(db: Db, userId: string): Promise<UserConsent> {
  return toUserConsent(await consentOf(db, userId));
}

/**
 * accounts §3 "User metadata edit" of the privacy fields: the location a person gives, and their own CCPA
 * opt-out (kept wherever they are).
 */
export async function editUserPrivacy(
  db: Db,
  userId: string,
  input: { geo_location?: GeoLocation | undefined; ccpa_opt_out?: boolean | undefined },
): Promise<void> {
  const fields: Partial<Consent> = {};
  if (input.geo_location !== undefined) fields.geoLocation = input.geo_location;
  if (input.ccpa_opt_out !== undefined) fields.ccpaOptOut = input.ccpa_opt_out;
  if (Object.keys(fields).length > 0) await saveUserConsent(db, userId, fields);
}

/** `GET /v1/user/consent`. */
export async function getConsentState(
  deps: ConsentDeps,
  userId: string,
  request: ConsentRequest,
): Promise<ConsentStateResponse> {
  return toConsentState(await loadConsent(deps, userId, request));
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
  let consent = await loadConsent(deps, userId, request);
  if (input.analytics_consent) {
    await saveUserConsent(deps.db, userId, { analyticsConsent: input.analytics_consent });
    consent = { ...consent, analyticsConsent: input.analytics_consent };
  }
  if (input.optOutCCPA && !consent.ccpaOptOut) {
    await saveUserConsent(deps.db, userId, { ccpaOptOut: true });
    consent = { ...consent, ccpaOptOut: true };
  }
  return toConsentState(consent);
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
  await requireUser(deps.db, userId);
  const consent = await ensureGeoLocation(deps, userId, ip);
  if (isInBipaRegion(consent.geoLocation) && !consent.acceptedBipaTerms) {
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
  if (!(await memberRoleOf(db, principal.workspaceId, principal.userId))) {
    throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  }
  return holdsAdminRights(db, principal.workspaceId, principal.userId);
}

/** accounts §3 Workspace.training_opt_out and whether the caller may change it (§6). */
export async function getWorkspaceTrainingOptOut(
  db: Db,
  principal: { userId: string; workspaceId: string },
): Promise<TrainingOptOutResponse> {
  const canChange = await callerIsAdmin(db, principal);
  return toTrainingOptOut(await getTrainingOptOut(db, principal.workspaceId), canChange);
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
