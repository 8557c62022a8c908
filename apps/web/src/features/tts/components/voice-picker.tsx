import type { VoiceResponse } from '@parla/contracts';
import { useId, useState } from 'react';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { inputClasses } from '../../../ui/field';
import { InitialAvatar } from '../../../ui/initial-avatar';
import { describeVoiceLabels, filterVoices } from '../tts-rules';

export interface VoicePickerProps {
  voices: readonly VoiceResponse[];
  selected: VoiceResponse | undefined;
  onSelect: (voice: VoiceResponse) => void;
  /** Plays the voice's preview in the bottom player. */
  onPreview: (voice: VoiceResponse) => void;
}

/** The chosen voice, and a dialog to search every voice, hear its preview and pick one. */
export function VoicePicker({ voices, selected, onSelect, onPreview }: VoicePickerProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const searchId = useId();
  const found = filterVoices(voices, search);
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-fg" id={`${searchId}-label`}>
        Voice
      </span>
      <button
        type="button"
        aria-labelledby={`${searchId}-label ${searchId}-current`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className="flex w-full items-center gap-3 rounded-lg border border-line bg-surface px-3 py-2.5 text-left shadow-xs transition-colors hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <InitialAvatar name={selected?.name ?? '?'} />
        <span className="flex min-w-0 flex-1 flex-col" id={`${searchId}-current`}>
          <span className="truncate text-sm font-medium">{selected?.name ?? 'Choose a voice'}</span>
          <span className="truncate text-xs text-fg-muted">
            {selected ? describeVoiceLabels(selected.labels).join(' · ') : `${voices.length} voices`}
          </span>
        </span>
        <span className="text-xs font-medium text-fg-muted">Change</span>
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setSearch('');
        }}
        title="Choose a voice"
        description="Listen to a preview, then pick the voice that reads your text."
        size="2xl"
      >
        <label htmlFor={searchId} className="sr-only">
          Search voices
        </label>
        <input
          id={searchId}
          type="search"
          placeholder="Search by name, accent, language, use…"
          className={inputClasses}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <p className="text-xs text-fg-muted" aria-live="polite">
          {found.length === voices.length
            ? `${voices.length} voices`
            : `${found.length} of ${voices.length} voices`}
        </p>
        {found.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line px-4 py-8 text-center text-sm text-fg-muted">
            No voice matches “{search.trim()}”.
          </p>
        ) : (
          <ul className="-mx-2 flex max-h-[55dvh] flex-col overflow-y-auto" aria-label="Voices">
            {found.map((voice) => {
              const isSelected = voice.voice_id === selected?.voice_id;
              return (
                <li
                  key={voice.voice_id}
                  className="flex items-center gap-3 rounded-lg px-2 py-2.5 hover:bg-subtle"
                  aria-current={isSelected ? 'true' : undefined}
                >
                  <InitialAvatar name={voice.name} />
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="flex items-center gap-2 text-sm font-medium">
                      {voice.name}
                      {isSelected && <Badge tone="success">Selected</Badge>}
                    </span>
                    {voice.description && <span className="text-xs text-fg-muted">{voice.description}</span>}
                    <span className="flex flex-wrap gap-1">
                      {describeVoiceLabels(voice.labels).map((label) => (
                        <Badge key={label}>{label}</Badge>
                      ))}
                    </span>
                  </div>
                  {voice.preview_url && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Preview ${voice.name}`}
                      onClick={() => onPreview(voice)}
                    >
                      Preview
                    </Button>
                  )}
                  <Button
                    variant={isSelected ? 'secondary' : 'primary'}
                    size="sm"
                    aria-label={`Use ${voice.name}`}
                    onClick={() => {
                      onSelect(voice);
                      setOpen(false);
                      setSearch('');
                    }}
                  >
                    Use
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </Dialog>
    </div>
  );
}
