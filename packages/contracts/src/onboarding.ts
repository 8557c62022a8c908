import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * Onboarding (accounts §3 User.is_onboarding_completed, onboarding_survey, is_onboarding_checklist_completed,
 * onboarding_checklist; §4 "Onboarding checklist"; §7 onboarding-survey-complete and the checklist calls).
 */

/** The survey's roles, each with its subroles (accounts §3 onboarding_survey role, subrole). */
export const ONBOARDING_ROLES = [
  {
    id: 'content_creator',
    label: 'Content creator',
    subroles: [
      { id: 'video_creator', label: 'Video creator' },
      { id: 'podcaster', label: 'Podcaster' },
      { id: 'audiobook_narrator', label: 'Author or audiobook narrator' },
      { id: 'voice_actor', label: 'Voice actor' },
      { id: 'musician', label: 'Musician or sound designer' },
    ],
  },
  {
    id: 'developer',
    label: 'Developer',
    subroles: [
      { id: 'app_developer', label: 'App or website developer' },
      { id: 'game_developer', label: 'Game developer' },
      { id: 'agent_builder', label: 'Builder of AI agents' },
      { id: 'researcher', label: 'Researcher' },
    ],
  },
  {
    id: 'business',
    label: 'Business',
    subroles: [
      { id: 'marketing', label: 'Marketing' },
      { id: 'customer_support', label: 'Customer support' },
      { id: 'training', label: 'Training and education' },
      { id: 'media_publishing', label: 'Media and publishing' },
      { id: 'localisation', label: 'Localisation' },
    ],
  },
  {
    id: 'education',
    label: 'Teacher or student',
    subroles: [
      { id: 'teacher', label: 'Teacher' },
      { id: 'student', label: 'Student' },
    ],
  },
  {
    id: 'personal',
    label: 'Personal use',
    subroles: [
      { id: 'accessibility', label: 'Accessibility (having text read aloud)' },
      { id: 'hobby', label: 'Hobby or fun' },
    ],
  },
  { id: 'other', label: 'Something else', subroles: [] },
] as const;

export type OnboardingRole = (typeof ONBOARDING_ROLES)[number]['id'];

/** The survey's "how did you hear about us" answers (accounts §3 onboarding_survey source). */
export const ONBOARDING_SOURCES = [
  { id: 'search_engine', label: 'Search engine' },
  { id: 'social_media', label: 'Social media' },
  { id: 'youtube', label: 'YouTube' },
  { id: 'podcast', label: 'Podcast' },
  { id: 'friend_or_colleague', label: 'Friend or colleague' },
  { id: 'news_or_blog', label: 'News or blog' },
  { id: 'open_source_community', label: 'GitHub or an open-source community' },
  { id: 'other', label: 'Other' },
] as const;

export type OnboardingSource = (typeof ONBOARDING_SOURCES)[number]['id'];

const roleIds = ONBOARDING_ROLES.map((role) => role.id) as [OnboardingRole, ...OnboardingRole[]];
const sourceIds = ONBOARDING_SOURCES.map((source) => source.id) as [OnboardingSource, ...OnboardingSource[]];

/** The subrole ids a role offers (none for "Something else"). */
export function subrolesOf(role: OnboardingRole): readonly string[] {
  return ONBOARDING_ROLES.find((entry) => entry.id === role)?.subroles.map((subrole) => subrole.id) ?? [];
}

/** Whether the runtime knows an IANA time zone name (`Europe/Berlin`, `UTC`). */
export function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `POST /v1/user/onboarding-survey-complete` (accounts §7): the survey's answers. */
export const OnboardingSurveyRequest = z
  .object({
    first_name: z.string().trim().min(1, 'Enter your first name.').max(100),
    role: z.enum(roleIds, { error: 'Choose what describes you best.' }),
    subrole: z.string().max(64).nullish(),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .refine(isKnownTimeZone, { error: 'Choose a time zone from the list.' }),
    source: z.enum(sourceIds).nullish(),
  })
  .superRefine((survey, ctx) => {
    if (survey.subrole && !subrolesOf(survey.role).includes(survey.subrole)) {
      ctx.addIssue({
        code: 'custom',
        path: ['subrole'],
        message: 'Choose one of the options for this role.',
      });
    }
  });
export type OnboardingSurveyRequest = z.infer<typeof OnboardingSurveyRequest>;

/**
 * accounts §4 "Items and triggers", in the order of accounts §2's landing pages (speech synthesis, speech
 * to speech, voice library, voice lab, dubbing, affiliates, docs).
 */
export const ONBOARDING_CHECKLIST_ITEMS = [
  'generate_text_to_speech',
  'generate_speech_to_speech',
  'add_voice_to_voice_lab',
  'design_voice',
  'create_dub',
  'join_affiliate',
  'generate_api_key',
] as const;

export const OnboardingChecklistItemId = z.enum(ONBOARDING_CHECKLIST_ITEMS);
export type OnboardingChecklistItemId = z.infer<typeof OnboardingChecklistItemId>;

/** accounts §3 "Onboarding checklist item", with Parla's completion time and acknowledgement. */
export const OnboardingChecklistItem = z.object({
  onboarding_checklist_item_id: OnboardingChecklistItemId,
  is_completed: z.boolean(),
  /** When the item's trigger fired (unix seconds); null while open. */
  completed_at_unix: z.number().int().nullable(),
  /** The completion was handed to a client by the acknowledge call: it is congratulated on once (§4, §8). */
  is_acknowledged: z.boolean(),
});
export type OnboardingChecklistItem = z.infer<typeof OnboardingChecklistItem>;

/** accounts §3 User.onboarding_checklist (checklist_id, items, hidden). */
export const OnboardingChecklist = z
  .object({
    checklist_id: z.string(),
    items: z.array(OnboardingChecklistItem),
    hidden: z.boolean(),
  })
  .meta({ id: 'OnboardingChecklist' });
export type OnboardingChecklist = z.infer<typeof OnboardingChecklist>;

/** What every checklist call answers: the checklist (null until initiated) and whether it is marked complete. */
export const OnboardingChecklistResponse = z
  .object({
    checklist: OnboardingChecklist.nullable(),
    is_onboarding_checklist_completed: z.boolean(),
  })
  .meta({ id: 'OnboardingChecklistResponse' });
export type OnboardingChecklistResponse = z.infer<typeof OnboardingChecklistResponse>;

/** accounts §8 "Checklist step": the toast for a step the client was given by the acknowledge call. */
export const checklistStepMessage = 'Congratulations on completing a step in your onboarding checklist.';

export const completeOnboardingSurveyRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/onboarding-survey-complete',
  summary: 'Keep the onboarding survey’s answers and mark onboarding as done',
  tags: ['user'],
  body: OnboardingSurveyRequest,
  response: z.object({ status: z.literal('ok') }),
});

/** The checklist fetch of accounts §7 (its path is not shown there; this is Parla's). */
export const getOnboardingChecklistRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/onboarding-checklist',
  summary: 'The onboarding checklist and the state of each item',
  tags: ['user'],
  response: OnboardingChecklistResponse,
});

export const initiateOnboardingChecklistRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/onboarding-checklist/initiate',
  summary: 'Start the onboarding checklist (a started checklist is kept as it is)',
  tags: ['user'],
  response: OnboardingChecklistResponse,
});

export const updateOnboardingChecklistRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/onboarding-checklist/update',
  summary: 'Complete one item of the onboarding checklist (once; a completed item stays as it is)',
  tags: ['user'],
  body: z.object({ item_id: OnboardingChecklistItemId }),
  response: OnboardingChecklistResponse.extend({
    /** Whether this call completed the item (false when it was complete already). */
    newly_completed: z.boolean(),
  }),
});

export const hideOnboardingChecklistRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/onboarding-checklist/hide',
  summary: 'Hide the onboarding checklist',
  tags: ['user'],
  response: OnboardingChecklistResponse,
});

export const markOnboardingChecklistCompleteRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/onboarding-checklist/mark-complete',
  summary: 'Mark the onboarding checklist as complete',
  tags: ['user'],
  response: OnboardingChecklistResponse,
});

/**
 * Parla: hands out the items completed since the last call, once each, so a client congratulates on a step
 * once whichever tab or device asks first (accounts §4 "then not re-sent", §8 "Checklist step").
 */
export const acknowledgeOnboardingChecklistRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/onboarding-checklist/acknowledge',
  summary: 'Take the checklist items completed since the last call (each is handed out once)',
  tags: ['user'],
  response: OnboardingChecklistResponse.extend({
    /** The items completed and not handed out before: congratulate on these. */
    acknowledged: z.array(OnboardingChecklistItemId),
  }),
});
