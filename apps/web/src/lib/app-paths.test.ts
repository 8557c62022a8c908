import { hostedSessionPaths, SHARE_PAGE_PATH } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { appPaths, listBuiltRoutes, listNavEntries, listRedirects, type RouteEntry } from './app-paths';

describe('app paths (accounts §2)', () => {
  const paths = appPaths.map((entry) => entry.path);

  it('has unique paths, all under /app except the landing, account-action, pricing, share and hosted billing pages', () => {
    const outsideApp = [
      '/',
      '/auth/action',
      '/pricing',
      // accounts §2's marketing page of dubbing (issue 29 item 4).
      '/dubbing',
      SHARE_PAGE_PATH,
      ...Object.values(hostedSessionPaths),
    ];
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(outsideApp.includes(path) || path.startsWith('/app/')).toBe(true);
  });

  it('serves every hosted page of the test-mode provider and /pricing, none of them in /app', () => {
    const built = listBuiltRoutes().map((entry) => entry.path);
    for (const path of [...Object.values(hostedSessionPaths), '/pricing']) expect(built).toContain(path);
    expect(built).toContain('/app/subscription');
    expect(built).toContain('/app/developers/usage');
    expect(built).toContain('/app/conversational-ai/agent-testing');
    // issue 28 "MCP servers": the integrations page.
    expect(built).toContain('/app/conversational-ai/integrations');
  });

  it('sends each moved page on to a built path, and serves no page at its old address', () => {
    const built = new Set(listBuiltRoutes().map((entry) => entry.path));
    const redirects = listRedirects();
    expect(redirects.map((entry) => [entry.path, entry.redirectTo])).toEqual([
      ['/app/voiceover-studio', '/app/studio'],
      ['/app/usage', '/app/developers/usage'],
      ['/app/settings/api-keys', '/app/developers/api-keys'],
    ]);
    for (const entry of redirects) {
      expect(built.has(entry.redirectTo)).toBe(true);
      expect(built.has(entry.path)).toBe(false);
    }
  });

  it('lists every /app path of accounts §2', () => {
    const spec = [
      'sign-in',
      'sign-up',
      'sign-in/forgot-password',
      'sso',
      'home',
      'ai-classifier',
      'audio-native',
      'audio-native/settings',
      'audio-native/settings/player',
      'audio-native/analytics',
      ...[
        '',
        '/agents',
        '/new',
        '/integrations',
        '/knowledge-base',
        '/phone-numbers',
        '/batch-calling',
        '/settings',
        '/agent-testing',
        '/history',
        '/playground',
        '/talk-to',
        '/tools',
      ].map((sub) => `conversational-ai${sub}`),
      ...['', '/api-keys', '/webhooks', '/service-accounts', '/usage'].map((sub) => `developers${sub}`),
      'dubbing',
      'onboarding',
      'onboarding/next',
      'onboarding-checklist',
      'payouts',
      ...['', '/active', '/dashboard', '/history', '/settings', '/settings/qualifications', '/unclaimed'].map(
        (sub) => `productions${sub}`,
      ),
      'profiles',
      ...['', '/generate', '/history', '/explore', '/explore/search', '/explore/category'].map(
        (sub) => `sound-effects${sub}`,
      ),
      ...['', '/api-keys', '/workspace-invites', '/webhooks'].map((sub) => `settings${sub}`),
      'studio',
      'speech-synthesis',
      'speech-synthesis/text-to-speech',
      'speech-synthesis/text-to-speech/history',
      // history/voices §1 dialogue: a path of this product's choosing.
      'speech-synthesis/text-to-dialogue',
      'speech-synthesis/speech-to-speech',
      'speech-synthesis/speech-to-speech/history',
      'speech-to-text',
      'subscription',
      ...['', '/members', '/groups', '/service-accounts', '/security', '/webhooks', '/voice-library'].map(
        (sub) => `workspace${sub}`,
      ),
      'usage',
      'usage/workspace',
      'voice-lab',
      'voice-lab/share/:publicUserId/:voiceId',
      'voice-lab/collections',
      // issue 18 item 5: professional voice cloning, paths of this product's choosing.
      'voice-lab/professional',
      'voice-lab/professional/:voiceId',
      'default-voices',
      'workspace-voices',
      'voiceover-studio',
      'voice-library',
      'voice-library/collections',
      'voice-isolator',
      'publishing',
      'music',
      'eleven',
      // accounts §2 "affiliates" (marketing page, redirect name, checklist page): a path of our choosing.
      'affiliates',
      // issue 18 item 4: the page that explains the models, a path of our choosing.
      'about/models',
      // issue 19 item 6: one transcript of the speech-to-text page, a path of our choosing.
      'speech-to-text/:transcriptionId',
      // issue 28 item 7: one agent's editor, a path of our choosing.
      'conversational-ai/agents/:agentId',
      // issue 28 item 7: one conversation of the call history, a path of our choosing.
      'conversational-ai/history/:conversationId',
      // issue 29 item 3: one dub's editor, a path of our choosing.
      'dubbing/:dubbingId',
      // issue 30 item 3: one Studio project's editor (accounts §2's redirect shape /app/studio/{id}).
      'studio/:projectId',
      // issue 30 item 1: the pronunciation dictionaries' page, a path of our choosing.
      'pronunciation-dictionaries',
      // issue 30 item 4: one Audio Native player's settings and analytics, paths of our choosing.
      'audio-native/:projectId/settings',
      'audio-native/:projectId/analytics',
    ].map((path) => `/app/${path}`);
    expect([...paths].filter((path) => path.startsWith('/app/')).sort()).toEqual([...spec].sort());
  });

  it('gives every entry a title and a section', () => {
    for (const entry of appPaths) {
      expect(entry.title.trim()).not.toBe('');
      expect(entry.section).toBeTruthy();
    }
  });

  it('has the landing page built and in the navigation', () => {
    expect(listBuiltRoutes().map((entry) => entry.path)).toContain('/');
    expect(listNavEntries()[0]).toMatchObject({ path: '/', title: 'Home' });
  });

  it('lists the built speech-synthesis pages in the navigation, in order', () => {
    expect(
      listNavEntries()
        .filter((entry) => entry.path.startsWith('/app/speech-synthesis/'))
        .map((entry) => entry.title),
    ).toEqual(['Text to speech', 'Text to dialogue', 'Speech to speech']);
  });

  it('an entry reaches the router once built, and the nav when marked inNav', () => {
    const table: RouteEntry[] = [
      { path: '/', title: 'Home', section: 'site', inNav: true, built: true },
      { path: '/app/dubbing', title: 'Dubbing', section: 'audio', inNav: true },
      { path: '/app/studio', title: 'Studio', section: 'audio', inNav: true, built: true },
      { path: '/app/studio/settings', title: 'Studio settings', section: 'audio', built: true },
    ];
    expect(listBuiltRoutes(table).map((e) => e.path)).toEqual(['/', '/app/studio', '/app/studio/settings']);
    expect(listNavEntries(table).map((e) => e.path)).toEqual(['/', '/app/studio']);
  });
});
