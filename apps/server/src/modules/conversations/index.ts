/**
 * The conversations module's front door (issue 28): conversations are opened by their socket and read
 * through their own routes; the telephony module opens a phone call's conversation on its media stream.
 */
export { issueSignature } from './conversation-services';
export { openConversationOn, recordPhoneCall } from './phone-socket';
