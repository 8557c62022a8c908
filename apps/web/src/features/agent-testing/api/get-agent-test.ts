import { getAgentTestRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/convai/agent-testing/{id}`: the whole test, for its editor. */
export function getAgentTest(testId: string) {
  return apiRequest(getAgentTestRoute, { params: { test_id: testId } });
}
