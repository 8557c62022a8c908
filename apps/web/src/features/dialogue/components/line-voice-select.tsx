import type { VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { inputClasses } from '../../../ui/field';

export interface LineVoiceSelectProps {
  /** The accessible name, e.g. "Voice of line 2". */
  label: string;
  voices: readonly VoiceResponse[];
  value: string;
  onChange: (voiceId: string) => void;
  invalid?: boolean;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language code as a name ("es" → "Spanish"); the code itself when it is not one. */
function languageName(code: string | undefined): string {
  if (!code) return 'Other';
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The voice of one line: a native select (compact enough for 50 lines, and fully keyboard driven), the
 * voices grouped by language, English first.
 */
export function LineVoiceSelect({ label, voices, value, onChange, invalid }: LineVoiceSelectProps) {
  const groups = new Map<string, VoiceResponse[]>();
  for (const voice of voices) {
    const name = languageName(voice.labels.language);
    groups.set(name, [...(groups.get(name) ?? []), voice]);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) =>
    a === 'English' ? -1 : b === 'English' ? 1 : a.localeCompare(b),
  );
  const known = voices.some((v) => v.voice_id === value);
  return (
    <select
      aria-label={label}
      aria-invalid={invalid || undefined}
      value={known ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      className={clsx(inputClasses, 'h-9 py-0 pr-8 font-medium')}
    >
      {!known && (
        <option value="" disabled>
          Choose a voice
        </option>
      )}
      {ordered.map(([language, members]) => (
        <optgroup key={language} label={language}>
          {members.map((voice) => (
            <option key={voice.voice_id} value={voice.voice_id}>
              {voice.name}
              {voice.labels.accent ? ` · ${voice.labels.accent.replace(/_/g, ' ')}` : ''}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
