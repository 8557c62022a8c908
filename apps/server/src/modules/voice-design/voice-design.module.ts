import { defineModule } from '../../platform/module';
import { subscribeVoiceDesign } from './voice-design.events';
import { voiceDesignRoutes } from './voice-design.routes';
import * as tables from './voice-design.tables';

/**
 * Voice design (text to voice): previews of a voice a description asks for, spoken by the text-to-speech
 * module and moved by the voice conversion, saved as a voice by the voices module. A composite capability:
 * it calls both through their front doors.
 */
export const voiceDesignModule = defineModule({
  name: 'voice-design',
  routes: [voiceDesignRoutes],
  tables,
  subscribe: subscribeVoiceDesign,
});
