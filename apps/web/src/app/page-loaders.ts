import { hostedSessionPaths, SHARE_PAGE_PATH } from '@parla/contracts';
import type { ComponentType } from 'react';
import { type BuiltPath, listBuiltRoutes, type RouteEntry } from '../lib/app-paths';

/** A page module: the lazy file in `routes/` whose default export is the page. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/** A built page with its module: what the router serves. */
export type PageRoute = RouteEntry & { page: PageLoader };

/**
 * The page module of every built path of lib/app-paths.ts (`built: true`). The record's type is the built
 * paths themselves, so a page marked built without a loader here, or a loader of a path not marked built,
 * fails the type check. Loaded on first visit: each page is its own chunk.
 */
export const pageLoaders: Readonly<Record<BuiltPath, PageLoader>> = {
  '/': () => import('../routes/home-page'),
  '/pricing': () => import('../routes/pricing-page'),
  '/dubbing': () => import('../routes/dubbing-marketing-page'),
  [SHARE_PAGE_PATH]: () => import('../routes/share-page'),
  '/app/sign-in': () => import('../routes/sign-in-page'),
  '/app/sign-up': () => import('../routes/sign-up-page'),
  '/app/sign-in/forgot-password': () => import('../routes/forgot-password-page'),
  '/auth/action': () => import('../routes/account-action-page'),
  '/app/home': () => import('../routes/app-home-page'),
  '/app/onboarding': () => import('../routes/onboarding-page'),
  '/app/onboarding/next': () => import('../routes/onboarding-next-page'),
  '/app/onboarding-checklist': () => import('../routes/onboarding-checklist-page'),
  '/app/speech-synthesis/text-to-speech': () => import('../routes/text-to-speech-page'),
  '/app/speech-synthesis/text-to-speech/history': () => import('../routes/history-page'),
  '/app/speech-synthesis/text-to-dialogue': () => import('../routes/text-to-dialogue-page'),
  '/app/speech-synthesis/speech-to-speech': () => import('../routes/speech-to-speech-page'),
  '/app/speech-synthesis/speech-to-speech/history': () => import('../routes/history-page'),
  '/app/about/models': () => import('../routes/about-models-page'),
  '/app/speech-to-text': () => import('../routes/speech-to-text-page'),
  '/app/speech-to-text/:transcriptionId': () => import('../routes/transcript-page'),
  '/app/dubbing': () => import('../routes/dubbing-page'),
  '/app/pronunciation-dictionaries': () => import('../routes/pronunciation-dictionaries-page'),
  '/app/audio-native': () => import('../routes/audio-native-page'),
  '/app/audio-native/:projectId/settings': () => import('../routes/audio-native-settings-page'),
  '/app/audio-native/:projectId/analytics': () => import('../routes/audio-native-analytics-page'),
  '/app/audio-native/settings': () => import('../routes/audio-native-choose-player-page'),
  '/app/audio-native/settings/player': () => import('../routes/audio-native-choose-player-page'),
  '/app/audio-native/analytics': () => import('../routes/audio-native-workspace-analytics-page'),
  '/app/dubbing/:dubbingId': () => import('../routes/dubbing-editor-page'),
  '/app/studio': () => import('../routes/studio-page'),
  '/app/studio/:projectId': () => import('../routes/studio-editor-page'),
  '/app/voice-lab': () => import('../routes/voice-lab-page'),
  '/app/voice-lab/share/:publicUserId/:voiceId': () => import('../routes/shared-voice-page'),
  '/app/voice-lab/professional': () => import('../routes/professional-voice-page'),
  '/app/voice-lab/professional/:voiceId': () => import('../routes/professional-voice-page'),
  '/app/voice-lab/collections': () => import('../routes/voice-collections-page'),
  '/app/voice-library': () => import('../routes/voice-library-page'),
  '/app/voice-library/collections': () => import('../routes/voice-collections-page'),
  '/app/default-voices': () => import('../routes/default-voices-page'),
  '/app/workspace-voices': () => import('../routes/workspace-voices-page'),
  '/app/conversational-ai': () => import('../routes/agents-page'),
  '/app/conversational-ai/agents': () => import('../routes/agents-page'),
  '/app/conversational-ai/new': () => import('../routes/new-agent-page'),
  '/app/conversational-ai/agents/:agentId': () => import('../routes/agent-editor-page'),
  '/app/conversational-ai/settings': () => import('../routes/agent-settings-page'),
  '/app/conversational-ai/integrations': () => import('../routes/integrations-page'),
  '/app/conversational-ai/phone-numbers': () => import('../routes/phone-numbers-page'),
  '/app/conversational-ai/batch-calling': () => import('../routes/batch-calling-page'),
  '/app/conversational-ai/tools': () => import('../routes/agent-tools-page'),
  '/app/conversational-ai/agent-testing': () => import('../routes/agent-testing-page'),
  '/app/conversational-ai/knowledge-base': () => import('../routes/knowledge-base-page'),
  '/app/conversational-ai/history': () => import('../routes/conversation-history-page'),
  '/app/conversational-ai/history/:conversationId': () => import('../routes/conversation-page'),
  '/app/conversational-ai/playground': () => import('../routes/talk-to-agent-page'),
  '/app/conversational-ai/talk-to': () => import('../routes/talk-to-agent-page'),
  '/app/developers/api-keys': () => import('../routes/api-keys-page'),
  '/app/developers/webhooks': () => import('../routes/webhooks-page'),
  '/app/developers/usage': () => import('../routes/usage-page'),
  '/app/workspace': () => import('../routes/workspace-page'),
  '/app/workspace/members': () => import('../routes/workspace-members-page'),
  '/app/workspace/groups': () => import('../routes/workspace-groups-page'),
  '/app/workspace/security': () => import('../routes/workspace-security-page'),
  '/app/workspace/webhooks': () => import('../routes/webhooks-page'),
  '/app/settings': () => import('../routes/settings-page'),
  '/app/settings/workspace-invites': () => import('../routes/workspace-invites-page'),
  '/app/settings/webhooks': () => import('../routes/webhooks-page'),
  '/app/subscription': () => import('../routes/subscription-page'),
  '/app/affiliates': () => import('../routes/affiliates-page'),
  [hostedSessionPaths.checkout]: () => import('../routes/billing-checkout-page'),
  [hostedSessionPaths.payment_method]: () => import('../routes/billing-payment-method-page'),
  [hostedSessionPaths.portal]: () => import('../routes/billing-portal-page'),
  [hostedSessionPaths.connect]: () => import('../routes/billing-connect-page'),
};

/** The built pages of the table with their modules, in the table's order: the routes of the router. */
export function listPageRoutes(): PageRoute[] {
  const loaders: Readonly<Record<string, PageLoader>> = pageLoaders;
  return listBuiltRoutes().flatMap((entry) => {
    const page = loaders[entry.path];
    return page ? [{ ...entry, page }] : [];
  });
}
