import { HealthResponse, healthRoute } from '@parla/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { isHttpError } from '../../../lib/http-error';

/** How often the status card asks again while it is on screen. */
const refreshIntervalMs = 30_000;

/**
 * `GET /health`. A 503 carries the same report with the failing check marked, so it is a result to show,
 * not an error; anything else that fails is thrown.
 */
export async function getHealth(signal?: AbortSignal): Promise<HealthResponse> {
  try {
    return await apiRequest(healthRoute, { signal });
  } catch (error) {
    if (isHttpError(error) && error.status === 503) {
      const report = HealthResponse.safeParse(error.data);
      if (report.success) return report.data;
    }
    throw error;
  }
}

/** Query options of the health report: refreshed every 30 s, and on focus. */
export function getHealthQueryOptions() {
  return queryOptions({
    queryKey: ['system', 'health'] as const,
    queryFn: ({ signal }) => getHealth(signal),
    refetchInterval: refreshIntervalMs,
    staleTime: 10_000,
  });
}

/** The live health report of the server. */
export function useHealth() {
  return useQuery(getHealthQueryOptions());
}
