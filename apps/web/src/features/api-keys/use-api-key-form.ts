import type { ApiKeyResponse } from '@parla/contracts';
import { useState } from 'react';
import { type ApiKeyForm, limitText, readApiKeyForm } from './api-key-form';

/**
 * The state of a key form: its two fields (filled from `apiKey` when editing) and the message under them.
 * `read` answers the checked form, or undefined after showing what is wrong.
 */
export function useApiKeyForm(apiKey?: ApiKeyResponse) {
  const [name, setName] = useState(apiKey?.name ?? '');
  const [limit, setLimit] = useState(apiKey ? limitText(apiKey.character_limit) : '');
  const [error, setError] = useState<string>();
  return {
    fields: { name, limit, onName: setName, onLimit: setLimit },
    error,
    setError,
    read(): ApiKeyForm | undefined {
      const form = readApiKeyForm(name, limit);
      if (typeof form === 'string') {
        setError(form);
        return undefined;
      }
      return form;
    },
    /** Empties the form for the next key. */
    reset() {
      setName('');
      setLimit('');
      setError(undefined);
    },
  };
}
