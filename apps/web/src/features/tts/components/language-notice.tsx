import type { VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { Button } from '../../../ui/button';
import { languageName, voicesOfLanguage } from '../../voices';
import type { LanguageNotice as Notice } from '../language-notice-rules';

export interface LanguageNoticeProps {
  notice: Notice;
  voice: VoiceResponse | undefined;
  voices: readonly VoiceResponse[];
  onSelect: (voice: VoiceResponse) => void;
  /** Opens the voice picker filtered to the language. */
  onShowAll: (language: string) => void;
  /** Reads the text in the language with the chosen voice (the request's `language_code`). */
  onReadIn: (language: string) => void;
}

/** How many voices of the text's language the notice offers by name. */
const OFFERED = 3;

/**
 * The notice's other choices, as underlined text in the notice's colour: readable on the warning
 * background (a ghost button's muted grey was not) and wrapping at 320 px where a long voice name
 * would push a button out of the box.
 */
const textActionClasses =
  'cursor-pointer text-left text-sm font-medium text-fg underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

/**
 * The text is in another language than the chosen voice (issue 18 item 4): says so, and offers voices
 * of that language (one click switches), all of them in the picker, or the chosen voice reading it in
 * that language.
 */
export function LanguageNotice({
  notice,
  voice,
  voices,
  onSelect,
  onShowAll,
  onReadIn,
}: LanguageNoticeProps) {
  if (notice.kind === 'none' || !voice) return null;
  const written = languageName(notice.language) ?? notice.language;
  const spoken = languageName(notice.voiceLanguage) ?? notice.voiceLanguage;
  if (notice.kind === 'unspoken') {
    return (
      <section
        aria-label="Language of the text"
        className="flex flex-col gap-1 rounded-lg border border-warning/40 bg-warning-soft px-3 py-2.5 text-sm text-fg"
      >
        <p>
          This text looks {written}. No voice here speaks {written}: {voice.name} would read it with {spoken}{' '}
          pronunciation.{' '}
          <Link to="/app/about/models" className="font-medium underline-offset-2 hover:underline">
            Which languages are spoken?
          </Link>
        </p>
      </section>
    );
  }
  const offered = voicesOfLanguage(voices, notice.language);
  return (
    <section
      aria-label="Language of the text"
      className="flex flex-col gap-2 rounded-lg border border-warning/40 bg-warning-soft px-3 py-2.5 text-sm text-fg"
    >
      <p>
        This text looks {written}, but {voice.name} speaks {spoken}: it would be read with {spoken}{' '}
        pronunciation.
      </p>
      {offered.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2">
          {offered.slice(0, OFFERED).map((other) => (
            <Button key={other.voice_id} size="sm" variant="secondary" onClick={() => onSelect(other)}>
              Use {other.name}
            </Button>
          ))}
          <button type="button" className={textActionClasses} onClick={() => onShowAll(notice.language)}>
            All {written} voices ({offered.length})
          </button>
        </div>
      ) : (
        <p className="text-fg-muted">No voice of {written} yet.</p>
      )}
      {notice.modelSpeaksIt && (
        <button
          type="button"
          className={clsx(textActionClasses, 'self-start')}
          onClick={() => onReadIn(notice.language)}
        >
          Read it in {written} with {voice.name}
        </button>
      )}
    </section>
  );
}
