import { hostedSessionPaths, SHARE_PAGE_PATH } from '@parla/contracts';

/**
 * The app's pages as data: paths, page titles, product areas and which pages are built. Below the features,
 * so a feature can link to a page, list the navigation or check that a path is built without importing the
 * router; the router (app/page-loaders.ts) attaches each built page's lazy module to its path.
 */

/** Groups of the product, for navigation. */
export type RouteSection =
  | 'site'
  | 'auth'
  | 'home'
  | 'audio'
  | 'voices'
  | 'agents'
  | 'publishing'
  | 'developers'
  | 'workspace'
  | 'account'
  /** The hosted pages of the built-in payment provider. */
  | 'billing';

export interface RouteEntry {
  /** Router path; `:name` segments are parameters. */
  path: string;
  /** The page's name in the navigation and the document title. */
  title: string;
  section: RouteSection;
  /**
   * The page is built: app/page-loaders.ts has its lazy module (the compiler holds the two lists equal).
   * Absent until the feature is built; until then the path shows "Page not found".
   */
  built?: boolean;
  /**
   * Listed in the navigation once built (sub-pages and auth pages are not): the app's sidebar for the
   * product areas, the marketing header for the site's pages (lib/nav-groups.ts).
   */
  inNav?: boolean;
  /**
   * An address kept working for a page that moved: the router sends it on to this built path, its query
   * kept. Such an entry is not built itself.
   */
  redirectTo?: string;
  /**
   * An app page open to visitors (no sign-in): shown in the site's frame to them, in the app's frame once
   * signed in (lib/nav-groups.ts shellFrameOf). Its page asks for no sign-in and calls no API that needs one.
   */
  openToVisitors?: boolean;
}

/**
 * Every page path of the product (accounts §2 "App paths under /app", plus the landing page). A feature
 * marks its page `built: true` here and gives it a loader in app/page-loaders.ts; only built entries reach
 * the router and the navigation, so there are no placeholder pages.
 */
export const appPaths = [
  { path: '/', title: 'Home', section: 'site', inNav: true, built: true },
  /** accounts §2 marketing path: what dubbing does here (issue 29 item 4), open to visitors. */
  { path: '/dubbing', title: 'Dubbing', section: 'site', inNav: true, built: true },
  /** accounts §2 marketing path: the plan offers, open to visitors. */
  {
    path: '/pricing',
    title: 'Pricing',
    section: 'site',
    inNav: true,
    built: true,
  },
  /** history/voices §2: the public page of a share link, open without sign-in (contracts SHARE_PAGE_PATH). */
  {
    path: SHARE_PAGE_PATH,
    title: 'Shared audio',
    section: 'site',
    built: true,
  },

  { path: '/app/sign-in', title: 'Sign in', section: 'auth', built: true },
  { path: '/app/sign-up', title: 'Sign up', section: 'auth', built: true },
  {
    path: '/app/sign-in/forgot-password',
    title: 'Forgot password',
    section: 'auth',
    built: true,
  },
  /** accounts §2 account-action landing page (the path is this product's choice). */
  {
    path: '/auth/action',
    title: 'Account',
    section: 'auth',
    built: true,
  },
  { path: '/app/sso', title: 'Single sign-on', section: 'auth' },

  /** The signed-in start page (accounts §2 "home"): where sign-in lands by default. */
  {
    path: '/app/home',
    title: 'Home',
    section: 'home',
    inNav: true,
    built: true,
  },
  {
    path: '/app/onboarding',
    title: 'Onboarding',
    section: 'home',
    built: true,
  },
  {
    path: '/app/onboarding/next',
    title: 'Onboarding',
    section: 'home',
    built: true,
  },
  {
    path: '/app/onboarding-checklist',
    title: 'Onboarding checklist',
    section: 'home',
    built: true,
  },

  { path: '/app/speech-synthesis', title: 'Speech synthesis', section: 'audio' },
  {
    path: '/app/speech-synthesis/text-to-speech',
    title: 'Text to speech',
    section: 'audio',
    inNav: true,
    built: true,
  },
  {
    path: '/app/speech-synthesis/text-to-speech/history',
    title: 'Text to speech history',
    section: 'audio',
    built: true,
  },
  /** history/voices §1 "write multi-line dialogue with several voices" (the path is this product's choice). */
  {
    path: '/app/speech-synthesis/text-to-dialogue',
    title: 'Text to dialogue',
    section: 'audio',
    inNav: true,
    built: true,
  },
  {
    path: '/app/speech-synthesis/speech-to-speech',
    title: 'Speech to speech',
    section: 'audio',
    inNav: true,
    built: true,
  },
  {
    path: '/app/speech-synthesis/speech-to-speech/history',
    title: 'Speech to speech history',
    section: 'audio',
    built: true,
  },
  /**
   * issue 18 item 4: what each model is and which languages it speaks (a path of this product's choice);
   * linked from every page's footer, so open to visitors (issue 26 item 7).
   */
  {
    path: '/app/about/models',
    title: 'About the models',
    section: 'audio',
    built: true,
    openToVisitors: true,
  },
  /** issue 19 item 6: transcribe recordings, and the workspace's transcripts. */
  {
    path: '/app/speech-to-text',
    title: 'Speech to text',
    section: 'audio',
    inNav: true,
    built: true,
  },
  {
    path: '/app/speech-to-text/:transcriptionId',
    title: 'Transcript',
    section: 'audio',
    built: true,
  },
  { path: '/app/sound-effects', title: 'Sound effects', section: 'audio', inNav: true },
  { path: '/app/sound-effects/generate', title: 'Generate sound effects', section: 'audio' },
  { path: '/app/sound-effects/history', title: 'Sound effects history', section: 'audio' },
  { path: '/app/sound-effects/explore', title: 'Explore sound effects', section: 'audio' },
  { path: '/app/sound-effects/explore/search', title: 'Search sound effects', section: 'audio' },
  { path: '/app/sound-effects/explore/category', title: 'Sound effect categories', section: 'audio' },
  { path: '/app/voice-isolator', title: 'Voice isolator', section: 'audio', inNav: true },
  /** issue 29 item 3: the workspace's dubs and the new-dub dialog. */
  { path: '/app/dubbing', title: 'Dubbing', section: 'audio', inNav: true, built: true },
  /** issue 29 item 3: the dubbing editor of one dub, a path of our choosing. */
  { path: '/app/dubbing/:dubbingId', title: 'Dubbing editor', section: 'audio', built: true },
  /** issue 30 item 3: the workspace's Studio projects (long-form audio, audiobooks) and the new-project dialog. */
  { path: '/app/studio', title: 'Studio', section: 'audio', inNav: true, built: true },
  /** issue 30 item 3; accounts §2 allowed redirect shape `/app/studio/{id}`: one project's editor. */
  { path: '/app/studio/:projectId', title: 'Studio editor', section: 'audio', built: true },
  /** issue 30: the workspace's pronunciation dictionaries, their rules, and its default list. */
  {
    path: '/app/pronunciation-dictionaries',
    title: 'Pronunciation dictionaries',
    section: 'audio',
    inNav: true,
    built: true,
  },
  /**
   * accounts §2 lists the path and nothing more: voiceovers are made in Studio here (a project per script,
   * a voice per paragraph), so the path opens Studio rather than a second, thinner editor.
   */
  {
    path: '/app/voiceover-studio',
    title: 'Voiceover studio',
    section: 'audio',
    redirectTo: '/app/studio',
  },
  { path: '/app/music', title: 'Music', section: 'audio', inNav: true },
  { path: '/app/ai-classifier', title: 'AI speech classifier', section: 'audio' },
  { path: '/app/eleven', title: 'Eleven', section: 'audio' },

  {
    path: '/app/voice-lab',
    title: 'Voice lab',
    section: 'voices',
    inNav: true,
    built: true,
  },
  {
    path: '/app/voice-lab/share/:publicUserId/:voiceId',
    title: 'Shared voice',
    section: 'voices',
    built: true,
  },
  /** issue 18 item 5: a professional voice clone, created then resumed where its flow stopped. */
  {
    path: '/app/voice-lab/professional',
    title: 'Professional voice clone',
    section: 'voices',
    built: true,
  },
  {
    path: '/app/voice-lab/professional/:voiceId',
    title: 'Professional voice clone',
    section: 'voices',
    built: true,
  },
  {
    path: '/app/voice-lab/collections',
    title: 'Voice collections',
    section: 'voices',
    inNav: true,
    built: true,
  },
  {
    path: '/app/voice-library',
    title: 'Voice library',
    section: 'voices',
    inNav: true,
    built: true,
  },
  {
    path: '/app/voice-library/collections',
    title: 'Voice library collections',
    section: 'voices',
    built: true,
  },
  {
    path: '/app/default-voices',
    title: 'Default voices',
    section: 'voices',
    built: true,
  },
  {
    path: '/app/workspace-voices',
    title: 'Workspace voices',
    section: 'voices',
    built: true,
  },

  /** issue 28 item 7: the workspace's agents (the same page at the two paths), a new one, and its editor. */
  {
    path: '/app/conversational-ai',
    title: 'Conversational AI',
    section: 'agents',
    inNav: true,
    built: true,
  },
  { path: '/app/conversational-ai/agents', title: 'Agents', section: 'agents', built: true },
  { path: '/app/conversational-ai/new', title: 'New agent', section: 'agents', built: true },
  /** The editor's path is this product's choice (the agent's id in the path, its tab in `?tab=`). */
  {
    path: '/app/conversational-ai/agents/:agentId',
    title: 'Agent',
    section: 'agents',
    built: true,
  },
  /** issue 28 "MCP servers": the workspace's MCP servers and their approved tools. */
  {
    path: '/app/conversational-ai/integrations',
    title: 'Integrations',
    section: 'agents',
    built: true,
  },
  { path: '/app/conversational-ai/knowledge-base', title: 'Knowledge base', section: 'agents', built: true },
  /** issue 28: Twilio numbers, the agent that answers each; SIP trunks kept (no SIP stack here). */
  { path: '/app/conversational-ai/phone-numbers', title: 'Phone numbers', section: 'agents', built: true },
  /** issue 28: calls to many numbers from a CSV, placed from their time a few at once. */
  { path: '/app/conversational-ai/batch-calling', title: 'Batch calling', section: 'agents', built: true },
  /** issue 28 item 4: the workspace's secrets that tools send. */
  { path: '/app/conversational-ai/settings', title: 'Agent settings', section: 'agents', built: true },
  { path: '/app/conversational-ai/agent-testing', title: 'Agent testing', section: 'agents', built: true },
  { path: '/app/conversational-ai/history', title: 'Call history', section: 'agents', built: true },
  {
    path: '/app/conversational-ai/history/:conversationId',
    title: 'Conversation',
    section: 'agents',
    built: true,
  },
  { path: '/app/conversational-ai/playground', title: 'Playground', section: 'agents', built: true },
  { path: '/app/conversational-ai/talk-to', title: 'Talk to an agent', section: 'agents', built: true },
  /** issue 28 item 4: the workspace's webhook and client tools. */
  { path: '/app/conversational-ai/tools', title: 'Tools', section: 'agents', built: true },

  /** issue 30 item 4: the workspace's Audio Native players, made from an article, and their embed code. */
  { path: '/app/audio-native', title: 'Audio Native', section: 'publishing', inNav: true, built: true },
  /** issue 30 item 4: one player's settings with a live preview (paths of our choosing, per player). */
  {
    path: '/app/audio-native/:projectId/settings',
    title: 'Audio Native player settings',
    section: 'publishing',
    built: true,
  },
  {
    path: '/app/audio-native/:projectId/analytics',
    title: 'Audio Native analytics',
    section: 'publishing',
    built: true,
  },
  /**
   * accounts §2's id-less settings: a player's settings are its own here, so these lead to them (the one
   * player's, or a choice of the workspace's players).
   */
  {
    path: '/app/audio-native/settings',
    title: 'Audio Native settings',
    section: 'publishing',
    built: true,
  },
  {
    path: '/app/audio-native/settings/player',
    title: 'Audio Native player',
    section: 'publishing',
    built: true,
  },
  /** accounts §2: the listening of every player of the workspace, added up, and each player's share. */
  {
    path: '/app/audio-native/analytics',
    title: 'Audio Native analytics',
    section: 'publishing',
    built: true,
  },
  { path: '/app/publishing', title: 'Publishing', section: 'publishing', inNav: true },
  { path: '/app/productions', title: 'Productions', section: 'publishing', inNav: true },
  { path: '/app/productions/active', title: 'Active productions', section: 'publishing' },
  { path: '/app/productions/dashboard', title: 'Productions dashboard', section: 'publishing' },
  { path: '/app/productions/history', title: 'Productions history', section: 'publishing' },
  { path: '/app/productions/settings', title: 'Productions settings', section: 'publishing' },
  { path: '/app/productions/settings/qualifications', title: 'Qualifications', section: 'publishing' },
  { path: '/app/productions/unclaimed', title: 'Unclaimed productions', section: 'publishing' },
  { path: '/app/payouts', title: 'Payouts', section: 'publishing' },
  { path: '/app/profiles', title: 'Profiles', section: 'publishing' },

  { path: '/app/developers', title: 'Developers', section: 'developers', inNav: true },
  /**
   * accounts §2; issue 26 item 7: the Developers group holds the API keys, the webhooks and the usage
   * (the keys were at /app/settings/api-keys and the usage at /app/usage, which lead here now).
   */
  {
    path: '/app/developers/api-keys',
    title: 'API keys',
    section: 'developers',
    inNav: true,
    built: true,
  },
  /** accounts §2; issue 19 item 5: the workspace's webhooks (the same page at the two paths below). */
  {
    path: '/app/developers/webhooks',
    title: 'Webhooks',
    section: 'developers',
    inNav: true,
    built: true,
  },
  { path: '/app/developers/service-accounts', title: 'Service accounts', section: 'developers' },
  {
    path: '/app/developers/usage',
    title: 'Usage',
    section: 'developers',
    inNav: true,
    built: true,
  },

  /** accounts §1/§6: the current workspace, its members, groups and security settings. */
  {
    path: '/app/workspace',
    title: 'Workspace',
    section: 'workspace',
    inNav: true,
    built: true,
  },
  {
    path: '/app/workspace/members',
    title: 'Members',
    section: 'workspace',
    built: true,
  },
  {
    path: '/app/workspace/groups',
    title: 'Groups',
    section: 'workspace',
    built: true,
  },
  { path: '/app/workspace/service-accounts', title: 'Service accounts', section: 'workspace' },
  {
    path: '/app/workspace/security',
    title: 'Security',
    section: 'workspace',
    built: true,
  },
  {
    path: '/app/workspace/webhooks',
    title: 'Workspace webhooks',
    section: 'workspace',
    built: true,
  },
  { path: '/app/workspace/voice-library', title: 'Workspace voice library', section: 'workspace' },
  { path: '/app/usage', title: 'Usage', section: 'workspace', redirectTo: '/app/developers/usage' },
  { path: '/app/usage/workspace', title: 'Workspace usage', section: 'workspace' },

  {
    path: '/app/settings',
    title: 'Settings',
    section: 'account',
    built: true,
  },
  {
    path: '/app/settings/api-keys',
    title: 'API keys',
    section: 'account',
    redirectTo: '/app/developers/api-keys',
  },
  /** accounts §4: invitations to join a workspace; the mailed link opens it with `?invite_code=`. */
  {
    path: '/app/settings/workspace-invites',
    title: 'Workspace invitations',
    section: 'account',
    built: true,
  },
  {
    path: '/app/settings/webhooks',
    title: 'Webhooks',
    section: 'account',
    built: true,
  },
  {
    path: '/app/subscription',
    title: 'Subscription',
    section: 'account',
    built: true,
  },
  /**
   * accounts §2 (the /affiliates page, the "affiliates" redirect name and checklist landing page): the
   * user's referral link and referrals, in the app (the path is this product's choice).
   */
  {
    path: '/app/affiliates',
    title: 'Affiliates',
    section: 'account',
    built: true,
  },

  /**
   * The hosted pages of the built-in test-mode payment provider (contracts `hostedSessionPaths`): outside
   * /app and open without sign-in, the session id in the path being their secret.
   */
  {
    path: hostedSessionPaths.checkout,
    title: 'Checkout',
    section: 'billing',
    built: true,
  },
  {
    path: hostedSessionPaths.payment_method,
    title: 'Payment method',
    section: 'billing',
    built: true,
  },
  {
    path: hostedSessionPaths.portal,
    title: 'Billing',
    section: 'billing',
    built: true,
  },
  {
    path: hostedSessionPaths.connect,
    title: 'Payouts setup',
    section: 'billing',
    built: true,
  },
] as const satisfies readonly RouteEntry[];

/** The paths of the built pages: the keys of app/page-loaders.ts. */
export type BuiltPath = Extract<(typeof appPaths)[number], { built: true }>['path'];

/** The entries whose page is built: the only ones the router serves. */
export function listBuiltRoutes(table: readonly RouteEntry[] = appPaths): RouteEntry[] {
  return table.filter((entry) => entry.built === true);
}

/** The old addresses of moved pages, each with the built path it leads to. */
export function listRedirects(
  table: readonly RouteEntry[] = appPaths,
): Array<RouteEntry & { redirectTo: string }> {
  return table.filter(
    (entry): entry is RouteEntry & { redirectTo: string } => entry.redirectTo !== undefined,
  );
}

/** The entries the navigation lists (the sidebar and the marketing header): built and marked `inNav`. */
export function listNavEntries(table: readonly RouteEntry[] = appPaths): RouteEntry[] {
  return listBuiltRoutes(table).filter((entry) => entry.inNav === true);
}
