import { defineModule, moduleJob } from '../../platform/module';
import { runAgentTestsJob } from './agent-testing.jobs';
import { agentTestingRoutes } from './agent-testing.routes';
import * as tables from './agent-testing.tables';

/** Agent testing: tests of an agent's next answer, run as jobs and judged (issue 28). */
export const agentTestingModule = defineModule({
  name: 'agent-testing',
  routes: [agentTestingRoutes],
  jobs: [moduleJob(runAgentTestsJob, (app) => ({ app }))],
  tables,
});
