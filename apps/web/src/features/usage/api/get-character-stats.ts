import { characterStatsRoute } from '@parla/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type CharacterStatsQuery = z.input<NonNullable<(typeof characterStatsRoute)['query']>>;
export type CharacterStats = z.output<(typeof characterStatsRoute)['response']>;

/**
 * `GET /v1/usage/character-stats`: credits used per interval between `start_unix` and `end_unix`
 * (milliseconds, as the public API takes them), broken down by model, voice or nothing.
 */
export function getCharacterStats(query: CharacterStatsQuery, signal?: AbortSignal): Promise<CharacterStats> {
  return apiRequest(characterStatsRoute, { query, signal });
}

export function getCharacterStatsQueryOptions(query: CharacterStatsQuery) {
  return queryOptions({
    queryKey: ['usage', 'character-stats', query] as const,
    queryFn: ({ signal }) => getCharacterStats(query, signal),
    // Switching the range or breakdown keeps the last chart up until the next one is in.
    placeholderData: keepPreviousData,
  });
}

export function useCharacterStats(query: CharacterStatsQuery) {
  return useQuery(getCharacterStatsQueryOptions(query));
}
