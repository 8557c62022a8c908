import type { VoiceCollection, VoiceResponse } from '@parla/contracts';
import { useId, useState } from 'react';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { describeVoiceTraits } from '../voice-labels';
import { getOwnVoiceKind, ownVoiceKindLabels } from '../voice-rules';

export interface CollectionVoicesDialogProps {
  /** The collection whose voices are chosen; the dialog is open while there is one. */
  collection: VoiceCollection | null;
  /** Every voice that can go in a collection: the workspace's own and the default ones. */
  voices: readonly VoiceResponse[];
  pending: boolean;
  error: string | undefined;
  /** The collection's voices after the choice (ids of voices not offered here are kept). */
  onSave: (voiceIds: string[]) => void;
  onClose: () => void;
}

/** Chooses which voices, own and default, are in a collection: tick them, then save. */
export function CollectionVoicesDialog({ collection, ...form }: CollectionVoicesDialogProps) {
  return (
    <Dialog
      open={collection !== null}
      onOpenChange={(open) => {
        if (!open && !form.pending) form.onClose();
      }}
      title={collection ? `Voices in ${collection.name}` : 'Voices'}
      description="Tick the voices this collection holds. A voice can be in several collections."
      size="xl"
    >
      {collection && (
        <CollectionVoicesForm key={collection.collection_id} collection={collection} {...form} />
      )}
    </Dialog>
  );
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

function CollectionVoicesForm({
  collection,
  voices,
  pending,
  error,
  onSave,
  onClose,
}: Omit<CollectionVoicesDialogProps, 'collection'> & { collection: VoiceCollection }) {
  const id = useId();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(collection.voice_ids));
  const [search, setSearch] = useState('');
  const needle = fold(search.trim());
  const shown = needle
    ? voices.filter((voice) =>
        fold([voice.name, voice.description ?? '', ...Object.values(voice.labels)].join(' ')).includes(
          needle,
        ),
      )
    : voices;
  const offered = new Set(voices.map((voice) => voice.voice_id));

  const toggle = (voiceId: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(voiceId);
      else next.delete(voiceId);
      return next;
    });
  const handleSave = () => {
    const kept = collection.voice_ids.filter((voiceId) => !offered.has(voiceId));
    onSave([...kept, ...voices.filter((voice) => chosen.has(voice.voice_id)).map((voice) => voice.voice_id)]);
  };

  return (
    <div className="flex flex-col gap-4">
      <label htmlFor={`${id}-search`} className="sr-only">
        Search voices
      </label>
      <input
        id={`${id}-search`}
        type="search"
        value={search}
        placeholder="Search voices"
        onChange={(event) => setSearch(event.target.value)}
        className={inputClasses}
      />
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-8 text-center text-sm text-fg-muted">
          No voice matches “{search.trim()}”.
        </p>
      ) : (
        <ul aria-label="Voices to choose from" className="-mx-2 flex max-h-[50dvh] flex-col overflow-y-auto">
          {shown.map((voice) => {
            const kind = getOwnVoiceKind(voice);
            return (
              <li key={voice.voice_id}>
                <label className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-2 hover:bg-subtle">
                  <input
                    type="checkbox"
                    checked={chosen.has(voice.voice_id)}
                    disabled={pending}
                    onChange={(event) => toggle(voice.voice_id, event.target.checked)}
                    className="size-4 shrink-0 cursor-pointer accent-accent"
                  />
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="flex items-center gap-2 text-sm font-medium">
                      {voice.name}
                      <Badge tone={kind === 'premade' ? 'neutral' : 'accent'}>
                        {ownVoiceKindLabels[kind]}
                      </Badge>
                    </span>
                    <span className="truncate text-xs text-fg-muted">
                      {describeVoiceTraits(voice.labels).join(' · ')}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <p className="text-xs text-fg-muted tabular-nums" aria-live="polite">
        {chosen.size} {chosen.size === 1 ? 'voice' : 'voices'} chosen
      </p>
      {error && <FormMessage>{error}</FormMessage>}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button onClick={handleSave} disabled={pending} aria-busy={pending}>
          {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
          Save
        </Button>
      </div>
    </div>
  );
}
