import { useEffect, useRef, useState } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import {
  DictionaryEditor,
  DictionaryList,
  NewDictionaryDialog,
  useDefaultDictionaries,
} from '../features/pronunciation-dictionaries';
import { getMinWidthQuery } from '../lib/breakpoints';
import { useMediaQuery } from '../lib/use-media-query';
import { Button } from '../ui/button';

/**
 * `/app/pronunciation-dictionaries` (issue 30 item 1): the workspace's pronunciation dictionaries — make
 * them empty or from a PLS lexicon, rename, archive, download, edit their alias and phoneme rules and hear
 * each, and choose which a request that names none uses.
 */
export default function PronunciationDictionariesPage() {
  return (
    <RequireSignIn>
      <Dictionaries />
    </RequireSignIn>
  );
}

function Dictionaries() {
  const [creating, setCreating] = useState(false);
  const [selectedId, setSelectedId] = useState<string>();
  const [includeArchived, setIncludeArchived] = useState(false);
  const defaults = useDefaultDictionaries();
  const defaultIds = (defaults.data?.pronunciation_dictionary_locators ?? []).map(
    (l) => l.pronunciation_dictionary_id,
  );
  // One column below md: the editor opens under the list, so it is brought into view.
  const wide = useMediaQuery(getMinWidthQuery('md'));
  const editor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selectedId && !wide) editor.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [selectedId, wide]);

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-semibold tracking-tight">Pronunciation dictionaries</h1>
          <p className="mt-1 max-w-2xl text-fg-muted">
            Teach the voices names, acronyms and words they say wrong: an alias says a word as other words, a
            phoneme rule as written sounds. Name up to three dictionaries in a request with{' '}
            <code className="font-mono text-fg">pronunciation_dictionary_locators</code>, or make them the
            workspace’s default.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>New dictionary</Button>
      </header>

      <div className="grid gap-6 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <DictionaryList
          selectedId={selectedId}
          onSelect={setSelectedId}
          onCreate={() => setCreating(true)}
          includeArchived={includeArchived}
          onIncludeArchived={setIncludeArchived}
          defaultIds={defaultIds}
        />
        <div ref={editor} className="min-w-0 scroll-mt-4">
          {selectedId ? (
            <DictionaryEditor key={selectedId} id={selectedId} />
          ) : (
            <p className="hidden text-fg-muted md:block">Choose a dictionary to see and edit its rules.</p>
          )}
        </div>
      </div>

      {creating && (
        <NewDictionaryDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            setSelectedId(id);
          }}
        />
      )}
    </div>
  );
}
