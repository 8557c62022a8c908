import {
  addDictionaryRulesRoute,
  type PronunciationRule,
  removeDictionaryRulesRoute,
} from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDictionaries } from './dictionary-query-keys';

export type ChangeRulesInput = { id: string; add: PronunciationRule[] } | { id: string; remove: string[] };

/** `add-rules` or `remove-rules`: each makes a new version of the dictionary. */
export function changeRules(input: ChangeRulesInput) {
  const params = { pronunciation_dictionary_id: input.id };
  if ('add' in input) return apiRequest(addDictionaryRulesRoute, { params, body: { rules: input.add } });
  return apiRequest(removeDictionaryRulesRoute, { params, body: { rule_strings: input.remove } });
}

export function useChangeRules() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeRules, onSuccess: () => void invalidateDictionaries(queryClient) });
}
