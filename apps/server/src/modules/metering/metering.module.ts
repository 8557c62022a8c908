import { defineModule } from '../../platform/module';

/** Metering: what anything that costs credits runs through (no routes of its own). */
export const meteringModule = defineModule({ name: 'metering' });
