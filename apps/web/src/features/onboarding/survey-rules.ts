import {
  isKnownTimeZone,
  type OnboardingSurveyRequest,
  OnboardingSurveyRequest as SurveySchema,
} from '@parla/contracts';

/** The browser's time zone, the survey's starting value; UTC where the browser does not say. */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isKnownTimeZone(zone) ? zone : 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every time zone the browser knows, with `current` in the list even where the browser leaves it out. */
export function timeZoneOptions(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = new Set([...known, 'UTC']);
  if (current) zones.add(current);
  return [...zones].sort((a, b) => a.localeCompare(b));
}

/** The survey form's values: every field a string, empty meaning "not chosen". */
export interface SurveyDraft {
  first_name: string;
  role: string;
  subrole: string;
  timezone: string;
  source: string;
}

/** The draft checked with the contract's schema: the answers to send, or an error per field. */
export function readSurvey(
  draft: SurveyDraft,
):
  | { ok: true; answers: OnboardingSurveyRequest }
  | { ok: false; errors: Partial<Record<keyof SurveyDraft, string>> } {
  const result = SurveySchema.safeParse({
    first_name: draft.first_name,
    role: draft.role || undefined,
    subrole: draft.subrole || null,
    timezone: draft.timezone,
    source: draft.source || null,
  });
  if (result.success) return { ok: true, answers: result.data };
  const errors: Partial<Record<keyof SurveyDraft, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof SurveyDraft | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
