/** The api-keys module's front door: what other modules may do (issue 26 item 1; the rest is its own). */
export {
  apiKeyIsLive,
  countKeyCredits,
  createApiKey,
  disableUserKeysCreatedAfter,
  latestLiveKeyPreview,
  resolveApiKey,
} from './api-keys.service';
