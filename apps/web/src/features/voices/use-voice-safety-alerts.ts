import type { VoiceResponse } from '@parla/contracts';
import { useEffect, useEffectEvent, useState } from 'react';
import { checkVoiceSafety, type VoiceSafetyAlert, type VoiceSafetyMemory } from './voice-safety-rules';

/** What the rule has seen this session, per signed-in user (kept in memory only, as §4 needs no more). */
const memories = new Map<string, VoiceSafetyMemory>();

/** Forgets what was seen (tests start each from a fresh session). */
export function resetVoiceSafetyMemory(): void {
  memories.clear();
}

/**
 * history/voices §4 "Voice safety" over a voice list: each time the list loads, voices with safety
 * controls that were not seen before queue their dialog (none after the session's first load). The
 * clone flow is read when the list arrives, not when it was asked for.
 */
export function useVoiceSafetyAlerts(
  voices: readonly VoiceResponse[] | undefined,
  { userId, cloneFlow }: { userId: string | undefined; cloneFlow: boolean },
) {
  const [alerts, setAlerts] = useState<VoiceSafetyAlert[]>([]);
  const onVoices = useEffectEvent((list: readonly VoiceResponse[], user: string) => {
    const result = checkVoiceSafety(list, memories.get(user) ?? { loaded: false, seen: new Set() }, {
      cloneFlow,
    });
    memories.set(user, result.memory);
    const next: VoiceSafetyAlert[] = [];
    if (result.blocked.length > 0) next.push({ kind: 'voiceBlocked', voices: result.blocked });
    if (result.captcha.length > 0) next.push({ kind: 'voiceCaptcha', voices: result.captcha });
    if (next.length > 0) setAlerts((current) => [...current, ...next]);
  });
  useEffect(() => {
    if (voices && userId) onVoices(voices, userId);
  }, [voices, userId]);
  return { alert: alerts[0], dismiss: () => setAlerts((current) => current.slice(1)) };
}
