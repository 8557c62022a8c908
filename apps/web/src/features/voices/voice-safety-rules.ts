import type { VoiceResponse } from '@parla/contracts';

/** The two dialogs of history/voices §4 "Voice safety". */
export type VoiceSafetyDialog = 'voiceBlocked' | 'voiceCaptcha';

/** One dialog to show: which of the two, and the voices it is about. */
export interface VoiceSafetyAlert {
  kind: VoiceSafetyDialog;
  voices: VoiceResponse[];
}

/** What the rule remembers between two loads of the voice list. */
export interface VoiceSafetyMemory {
  /** Whether the list has loaded once already: the first load only takes note of what is there. */
  loaded: boolean;
  /** The ids of every voice seen in a load so far. */
  seen: ReadonlySet<string>;
}

export interface VoiceSafetyResult {
  /** BAN voices not seen before: the voiceBlocked dialog names them. */
  blocked: VoiceResponse[];
  /** CAPTCHA voices not seen before: the voiceCaptcha dialog names them. */
  captcha: VoiceResponse[];
  /** The memory after this load: every voice in it counts as seen. */
  memory: VoiceSafetyMemory;
}

/** The query parameter whose `cloneVoice` marks the clone flow, where a new clone's captcha is expected. */
export const CREATION_TYPE_PARAM = 'creationType';

/** Whether a URL's query says the user is cloning a voice (`creationType=cloneVoice`). */
export function isCloneFlow(search: string | URLSearchParams): boolean {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return params.get(CREATION_TYPE_PARAM) === 'cloneVoice';
}

/**
 * history/voices §4 "Voice safety (on voice list refresh after the first)": after a load of the voice list
 * that is not the first, a BAN voice not seen before opens the voiceBlocked dialog, and a CAPTCHA voice not
 * seen before opens the voiceCaptcha dialog unless the user is in the clone flow (`creationType=cloneVoice`).
 * The first load opens nothing. Every voice of a load counts as seen afterwards, so each opens once.
 */
export function checkVoiceSafety(
  voices: readonly VoiceResponse[],
  memory: VoiceSafetyMemory,
  { cloneFlow }: { cloneFlow: boolean },
): VoiceSafetyResult {
  const seen = new Set(memory.seen);
  const fresh: VoiceResponse[] = [];
  for (const voice of voices) {
    // A voice listed twice in one load is still one voice.
    if (memory.loaded && !seen.has(voice.voice_id)) fresh.push(voice);
    seen.add(voice.voice_id);
  }
  return {
    blocked: fresh.filter((voice) => voice.safety_control === 'BAN'),
    captcha: cloneFlow ? [] : fresh.filter((voice) => voice.safety_control === 'CAPTCHA'),
    memory: { loaded: true, seen },
  };
}
