import { defineModule } from '../../platform/module';
import * as tables from './provenance.tables';

/**
 * The fingerprints of the installation's generated audio (issue 26 item 7): kept by the modules that send
 * audio out, looked up by professional-clone verification. No routes; its rows go with their workspace.
 */
export const provenanceModule = defineModule({ name: 'provenance', tables });
