import type { ShareableKind } from '../../platform/module';
import { voiceNotFound } from './speaking-voice';
import { findSharedVoice } from './voices.store';

/** A workspace's own voices are shared between its members (history/voices §7). */
export const voiceShareable: ShareableKind = {
  kind: 'voice',
  find: findSharedVoice,
  notFound: voiceNotFound,
};
