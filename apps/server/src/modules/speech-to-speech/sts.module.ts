import { defineModule } from '../../platform/module';
import { stsRoutes } from './sts.routes';

/** Speech to speech (the voice changer). */
export const stsModule = defineModule({ name: 'speech-to-speech', routes: [stsRoutes] });
