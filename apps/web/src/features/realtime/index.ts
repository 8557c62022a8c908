/** The realtime sockets' shared parts (issue 20 item 6), for the speech-to-text and text-to-speech pages. */
export { createSingleUseToken } from './api/create-single-use-token';
export { type MicrophonePcm, openMicrophonePcm } from './microphone-pcm';
export { base64ToBytes, bytesToBase64, pcm16ToFloat, socketUrl } from './realtime-rules';
