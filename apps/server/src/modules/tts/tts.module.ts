import { defineModule } from '../../platform/module';
import { ttsRoutes } from './tts.routes';
import { ttsSocketRoutes } from './tts-socket';

/** Text to speech, and the OpenAI-compatible speech call. */
export const ttsModule = defineModule({ name: 'tts', routes: [ttsRoutes, ttsSocketRoutes] });
