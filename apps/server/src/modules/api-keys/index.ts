/** The api-keys module's front door: what other modules may use (issue 17; the rest is its own). */
export { apiKeyIsLive, resolveApiKey } from './api-keys.service';
export { disableUserKeysCreatedAfter, latestLiveKeyPreview } from './api-keys.store';
