import {
  createApiKeyRoute,
  createBackupCodeRoute,
  deleteApiKeyRoute,
  deleteUserRoute,
  editApiKeyRoute,
  editUserMetadataRoute,
  editUserRoute,
  listApiKeysRoute,
  prepareInternalVerificationRoute,
  sendEmailChangeVerificationRoute,
  updateEmailRoute,
  updateMfaFactorsRoute,
  verifySensitiveActionCodeRoute,
} from '@parla/contracts';
import { apiRequest } from '../../lib/api-client';

/** The calls of the settings and API-key pages (accounts §7). */
export const accountApi = {
  editUser: (body: { first_name?: string; locale?: string }) => apiRequest(editUserRoute, { body }),
  editMetadata: (body: { agrees_to_product_updates?: boolean }) =>
    apiRequest(editUserMetadataRoute, { body }),
  enrollTotp: () => apiRequest(updateMfaFactorsRoute, { body: { action: 'enroll_totp' } }),
  verifyTotp: (code: string) => apiRequest(updateMfaFactorsRoute, { body: { action: 'verify_totp', code } }),
  removeTotp: (code: string) => apiRequest(updateMfaFactorsRoute, { body: { action: 'remove_totp', code } }),
  createBackupCode: () => apiRequest(createBackupCodeRoute),
  prepareInternalVerification: (email: string) =>
    apiRequest(prepareInternalVerificationRoute, { body: { email } }),
  verifySensitiveActionCode: (code: string) =>
    apiRequest(verifySensitiveActionCodeRoute, { body: { verification_code: code } }),
  sendEmailChangeVerification: (newEmail: string, sensitiveActionCode: string | null) =>
    apiRequest(sendEmailChangeVerificationRoute, {
      body: { new_email: newEmail },
      headers: sensitiveActionCode ? { 'xi-sensitive-action-code': sensitiveActionCode } : undefined,
    }),
  updateEmail: (code: string, isReverting: boolean) =>
    apiRequest(updateEmailRoute, {
      query: { verification_code: code, is_reverting: isReverting ? 'true' : 'false' },
    }),
  deleteAccount: (sensitiveActionCode: string | null) =>
    apiRequest(deleteUserRoute, {
      headers: sensitiveActionCode ? { 'xi-sensitive-action-code': sensitiveActionCode } : undefined,
    }),
  listApiKeys: () => apiRequest(listApiKeysRoute),
  createApiKey: (body: { name: string; character_limit?: number | null }) =>
    apiRequest(createApiKeyRoute, { body }),
  editApiKey: (
    keyId: string,
    body: { name?: string; character_limit?: number | null; is_disabled?: boolean },
  ) => apiRequest(editApiKeyRoute, { params: { key_id: keyId }, body }),
  deleteApiKey: (keyId: string) => apiRequest(deleteApiKeyRoute, { params: { key_id: keyId } }),
};
