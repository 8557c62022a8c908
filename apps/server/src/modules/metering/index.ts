/** The metering module's front door: what other modules may use (issue 17; the rest is its own). */

export type { Budget, MeteredCaller, MeteredWork, MeteringDeps } from './metering.service';
export {
  assertAffordable,
  assertFormatAllowed,
  finishStreamed,
  openBudget,
  recordGeneration,
  runMetered,
} from './metering.service';
