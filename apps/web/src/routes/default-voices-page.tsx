import { useId, useState } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { EmptyState } from '../features/voices/components/voice-list-states';
import { VoiceSearchList } from '../features/voices/components/voice-search-list';
import { VoicesPageHeader } from '../features/voices/components/voices-nav';
import { VOICE_SEARCH_DEBOUNCE_MS } from '../features/voices/voice-rules';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { Button } from '../ui/button';
import { SearchField } from '../ui/search-field';

/**
 * `/app/default-voices` (history/voices §2 default voices): the premade voices every workspace has
 * (`GET /v2/voices?voice_type=default`), searched on the server, each with its preview.
 */
export default function DefaultVoicesPage() {
  return (
    <RequireSignIn>
      <DefaultVoices />
    </RequireSignIn>
  );
}

function DefaultVoices() {
  const id = useId();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), VOICE_SEARCH_DEBOUNCE_MS);
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <VoicesPageHeader
        title="Default voices"
        description="The voices Parla ships with, ready in every workspace and every voice picker."
      />
      <search className="sm:w-80">
        <SearchField
          id={`${id}-search`}
          label="Search default voices"
          value={searchInput}
          onChange={setSearchInput}
          placeholder="Search by name, accent, language…"
        />
      </search>
      <VoiceSearchList
        filters={{ voiceType: 'default', search, sort: 'name' }}
        label="Default voices"
        empty={
          <EmptyState
            title={search ? 'No voices match' : 'No default voices'}
            actions={
              search ? (
                <Button variant="secondary" onClick={() => setSearchInput('')}>
                  Clear search
                </Button>
              ) : undefined
            }
          >
            {search ? `No default voice matches “${search}”.` : 'This server offers no premade voices.'}
          </EmptyState>
        }
      />
    </div>
  );
}
