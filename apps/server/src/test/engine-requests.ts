import { vi } from 'vitest';
import type { EngineSynthesisRequest } from '../providers/tts/tts-provider';
import type { TestApp } from './test-app';

/**
 * Every engine request the test app makes from now on, still made (the real engines speak): what the
 * neural tests read to see which engine and voice a request reached. Empty it with `length = 0`.
 */
export function recordEngineRequests(t: TestApp): EngineSynthesisRequest[] {
  const requests: EngineSynthesisRequest[] = [];
  const tts = t.deps.providers.tts;
  const synthesize = tts.synthesize.bind(tts);
  vi.spyOn(tts, 'synthesize').mockImplementation((request, options) => {
    requests.push(request);
    return synthesize(request, options);
  });
  return requests;
}
