import type {
  OnboardingChecklistItem,
  OnboardingChecklistItemId,
  OnboardingChecklistResponse,
  UserResponse,
} from '@parla/contracts';

/** Where an item's landing page is (accounts §2 "Onboarding checklist landing pages"). */
export interface ChecklistLanding {
  label: string;
  /** An app path (a page of lib/app-paths.ts) or a server page such as the API reference. */
  href: string;
  /** A page the server serves itself (`/docs`), not one of the app's routes. */
  serverPage?: boolean;
}

export interface ChecklistItemGuide {
  title: string;
  description: string;
  /**
   * accounts §2's landing page: speech synthesis, speech to speech, voice library, voice lab, dubbing,
   * affiliates, docs. While it is not built, the step is not shown (`itemsOfBuiltProducts`).
   */
  landing: ChecklistLanding;
  /** A second link, where the landing page alone does not get the step done. */
  extra?: ChecklistLanding;
}

/** accounts §4's items, in the order of their landing pages (§2). */
export const checklistItemGuides: Record<OnboardingChecklistItemId, ChecklistItemGuide> = {
  generate_text_to_speech: {
    title: 'Generate text to speech',
    description: 'Type a line and hear it spoken in one of the voices.',
    landing: { label: 'Open text to speech', href: '/app/speech-synthesis/text-to-speech' },
  },
  generate_speech_to_speech: {
    title: 'Convert speech to speech',
    description: 'Record or upload speech and hear it in another voice.',
    landing: { label: 'Open speech to speech', href: '/app/speech-synthesis/speech-to-speech' },
  },
  add_voice_to_voice_lab: {
    title: 'Add a voice from the library',
    description: 'Pick a voice someone shared and add it to your voices.',
    landing: { label: 'Open the voice library', href: '/app/voice-library' },
  },
  design_voice: {
    title: 'Design a voice',
    description: 'Describe a voice in words and save the preview you like.',
    landing: { label: 'Open the voice lab', href: '/app/voice-lab?creationType=designVoice' },
  },
  create_dub: {
    title: 'Create a dub',
    description: 'Dub audio or video into another language.',
    landing: { label: 'Open dubbing', href: '/app/dubbing' },
  },
  join_affiliate: {
    title: 'Join the affiliate programme',
    description: 'Get your referral link and share Parla with others.',
    landing: { label: 'Open affiliates', href: '/app/affiliates' },
  },
  generate_api_key: {
    title: 'Create an API key',
    description: 'Call Parla from your own code with the official SDKs.',
    landing: { label: 'Read the API reference', href: '/docs', serverPage: true },
    extra: { label: 'Create a key', href: '/app/developers/api-keys' },
  },
};

/**
 * The link to an item's landing page, or null when that page is not built (no dead links): app paths must
 * be a built page of lib/app-paths.ts; the server's own pages always are.
 */
export function availableLanding(
  landing: ChecklistLanding | null | undefined,
  builtPaths: ReadonlySet<string>,
): ChecklistLanding | null {
  if (!landing) return null;
  if (landing.serverPage) return landing;
  const [path = ''] = landing.href.split('?');
  return builtPaths.has(path) ? landing : null;
}

/**
 * The items whose product is built (their landing page is a built page), in the server's order: a step
 * nobody can do yet is not shown (issue 18 item 8). The server keeps every item of accounts §4, so the
 * step appears, with its state, once its page is built; the checklist's API and completion are unchanged.
 */
export function itemsOfBuiltProducts<T extends Pick<OnboardingChecklistItem, 'onboarding_checklist_item_id'>>(
  items: readonly T[],
  builtPaths: ReadonlySet<string>,
): T[] {
  return items.filter(
    (item) =>
      availableLanding(checklistItemGuides[item.onboarding_checklist_item_id].landing, builtPaths) !== null,
  );
}

/** How many items are done, of how many. */
export function checklistProgress(items: readonly OnboardingChecklistItem[]): {
  done: number;
  total: number;
} {
  return { done: items.filter((item) => item.is_completed).length, total: items.length };
}

/** Whether the checklist is started, showing and not marked complete: the widget and the congratulations. */
export function isChecklistActive(answer: OnboardingChecklistResponse | undefined): boolean {
  return Boolean(answer?.checklist && !answer.checklist.hidden && !answer.is_onboarding_checklist_completed);
}

/** Completed items no client has been handed yet (the acknowledge call hands them out once). */
export function unacknowledgedItems(
  answer: OnboardingChecklistResponse | undefined,
): OnboardingChecklistItemId[] {
  return (answer?.checklist?.items ?? [])
    .filter((item) => item.is_completed && !item.is_acknowledged)
    .map((item) => item.onboarding_checklist_item_id);
}

/** accounts §3 is_onboarding_completed: the survey is still to do. */
export function needsOnboarding(
  user: Pick<UserResponse, 'is_onboarding_completed'> | null | undefined,
): boolean {
  return user?.is_onboarding_completed === false;
}

/** The onboarding path: first the survey, then `target` (kept as the `redirect` parameter). */
export const onboardingPath = '/app/onboarding';
export const onboardingNextPath = '/app/onboarding/next';

/** Where a signed-in user goes instead of `target`: the survey first while onboarding is to do. */
export function landingAfterSignIn(
  target: string,
  user: Pick<UserResponse, 'is_onboarding_completed'> | null | undefined,
): string {
  if (!needsOnboarding(user) || target.startsWith(onboardingPath)) return target;
  return `${onboardingPath}?redirect=${encodeURIComponent(target)}`;
}
