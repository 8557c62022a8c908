import type { VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { useEffect, useId, useState } from 'react';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { inputClasses } from '../../../ui/field';
import { InitialAvatar } from '../../../ui/initial-avatar';
import { usePreviewPlayer } from '../use-preview-player';
import {
  describeVoiceLabels,
  filterChoices,
  filterVoiceList,
  hasVoiceFilters,
  NO_VOICE_FILTERS,
  VOICE_FILTER_KEYS,
  VOICE_FILTER_NAMES,
  type VoiceFilters,
} from '../voice-picker-rules';
import { voicePreviewPlayback } from '../voice-playback';
import { PreviewButton } from './preview-button';

export interface VoicePickerProps {
  voices: readonly VoiceResponse[];
  selected: VoiceResponse | undefined;
  onSelect: (voice: VoiceResponse) => void;
  /** The field's visible label ("Voice"); with `compact`, the trigger's accessible name ("Voice of line 2"). */
  label?: string;
  /** A one-line trigger for tight rows (a dialogue's lines). */
  compact?: boolean;
  invalid?: boolean;
  /** Nothing to choose for yet (Studio's selection toolbar with no cursor in a paragraph). */
  disabled?: boolean;
  /** Open the dialog from outside (the language notice's "show all"), with `presetLanguage` filtered. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  presetLanguage?: string;
}

/**
 * The voice picker used wherever a voice is chosen (issue 18 item 4): the chosen voice, and a dialog to
 * search every voice, filter by language, accent, gender, age and use case, hear each preview in the
 * bottom player and pick one. Everything is a native control or a button, reached with Tab.
 */
export function VoicePicker({
  voices,
  selected,
  onSelect,
  label = 'Voice',
  compact = false,
  invalid = false,
  disabled = false,
  open: openProp,
  onOpenChange,
  presetLanguage,
}: VoicePickerProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = openProp ?? ownOpen;
  const [filters, setFilters] = useState<VoiceFilters>(NO_VOICE_FILTERS);
  const id = useId();
  const preview = usePreviewPlayer();

  // Each opening starts from the preset (or no filter), not from what the last search left.
  useEffect(() => {
    if (open) setFilters({ ...NO_VOICE_FILTERS, language: presetLanguage ?? '' });
  }, [open, presetLanguage]);

  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const found = filterVoiceList(voices, filters);
  const set = (patch: Partial<VoiceFilters>) => setFilters((current) => ({ ...current, ...patch }));
  const summary = selected ? describeVoiceLabels(selected.labels).join(' · ') : `${voices.length} voices`;

  return (
    <div className={clsx('flex min-w-0 flex-col', compact ? 'gap-0' : 'gap-1.5')}>
      {!compact && (
        <span className="text-sm font-medium text-fg" id={`${id}-label`}>
          {label}
        </span>
      )}
      <button
        type="button"
        {...(compact
          ? { 'aria-label': `${label}: ${selected?.name ?? 'none chosen'}` }
          : { 'aria-labelledby': `${id}-label ${id}-current` })}
        aria-haspopup="dialog"
        aria-invalid={invalid || undefined}
        disabled={disabled}
        onClick={() => setOpen(true)}
        className={clsx(
          'flex w-full min-w-0 items-center rounded-lg border bg-surface text-left shadow-xs transition-colors hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:bg-surface',
          invalid ? 'border-danger' : 'border-line',
          compact ? 'h-9 gap-2 px-2.5' : 'gap-3 px-3 py-2.5',
        )}
      >
        {!compact && <InitialAvatar name={selected?.name ?? '?'} />}
        <span className="flex min-w-0 flex-1 flex-col" id={`${id}-current`}>
          <span className="truncate text-sm font-medium">{selected?.name ?? 'Choose a voice'}</span>
          {/* Two lines, not one cut short: the language and accent of a voice come first, but at the
              settings column's width one line showed only "English · American · female…". */}
          {!compact && <span className="line-clamp-2 text-xs text-fg-muted">{summary}</span>}
        </span>
        <span className="shrink-0 text-xs font-medium text-fg-muted">{compact ? '▾' : 'Change'}</span>
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Choose a voice"
        description="Filter, listen to a preview, then pick the voice that reads your text."
        size="2xl"
      >
        <div className="flex flex-col gap-3">
          <label htmlFor={`${id}-search`} className="sr-only">
            Search voices
          </label>
          <input
            id={`${id}-search`}
            type="search"
            placeholder="Search by name, accent, language, use…"
            className={inputClasses}
            value={filters.search}
            onChange={(event) => set({ search: event.target.value })}
          />
          <fieldset className="grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-5">
            <legend className="sr-only">Filters</legend>
            {VOICE_FILTER_KEYS.map((key) => {
              const choices = filterChoices(voices, key);
              const value = filters[key];
              // A preset value no voice carries (a language with no voice yet) stays visible as chosen.
              const missing = value && !choices.some((c) => c.value === value);
              return (
                <label key={key} className="flex min-w-0 flex-col gap-1 text-xs font-medium text-fg-muted">
                  {VOICE_FILTER_NAMES[key]}
                  <select
                    className={clsx(inputClasses, 'h-9 min-w-0 py-0 pr-7 text-sm')}
                    value={value}
                    onChange={(event) => set({ [key]: event.target.value })}
                    disabled={choices.length === 0 && !missing}
                  >
                    <option value="">Any</option>
                    {missing && <option value={value}>{value}</option>}
                    {choices.map((choice) => (
                      <option key={choice.value} value={choice.value}>
                        {choice.label} ({choice.count})
                      </option>
                    ))}
                  </select>
                </label>
              );
            })}
          </fieldset>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-fg-muted" aria-live="polite">
              {found.length === voices.length
                ? `${voices.length} voices`
                : `${found.length} of ${voices.length} voices`}
            </p>
            {hasVoiceFilters(filters) && (
              <Button variant="ghost" size="sm" onClick={() => setFilters(NO_VOICE_FILTERS)}>
                Clear filters
              </Button>
            )}
          </div>
        </div>
        {found.length === 0 ? (
          <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-line px-4 py-8 text-center text-sm text-fg-muted">
            <p>No voice matches these filters.</p>
            <Button variant="secondary" size="sm" onClick={() => setFilters(NO_VOICE_FILTERS)}>
              Show every voice
            </Button>
          </div>
        ) : (
          <ul className="-mx-2 flex min-h-0 flex-col overflow-y-auto sm:max-h-[50dvh]" aria-label="Voices">
            {found.map((voice) => {
              const isSelected = voice.voice_id === selected?.voice_id;
              const playback = voicePreviewPlayback({ ...voice, language: voice.labels.language });
              return (
                <li
                  key={voice.voice_id}
                  className="flex items-center gap-3 rounded-lg px-2 py-2.5 hover:bg-subtle"
                  aria-current={isSelected ? 'true' : undefined}
                >
                  {/* Below sm the avatar gives its width to the name, description and labels. */}
                  <InitialAvatar name={voice.name} className="max-sm:hidden" />
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="flex flex-wrap items-center gap-2 text-sm font-medium">
                      <span className="break-words">{voice.name}</span>
                      {isSelected && <Badge tone="success">Selected</Badge>}
                    </span>
                    {voice.description && (
                      <span className="text-xs break-words text-fg-muted">{voice.description}</span>
                    )}
                    <span className="flex flex-wrap gap-1">
                      {describeVoiceLabels(voice.labels).map((trait) => (
                        <Badge key={trait}>{trait}</Badge>
                      ))}
                    </span>
                  </div>
                  <PreviewButton
                    label={`the preview of ${voice.name}`}
                    playing={preview.isPlaying(voice.voice_id)}
                    onToggle={playback ? () => preview.toggle(playback) : undefined}
                  />
                  <Button
                    variant={isSelected ? 'secondary' : 'primary'}
                    size="sm"
                    aria-label={`Use ${voice.name}`}
                    onClick={() => {
                      onSelect(voice);
                      setOpen(false);
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
