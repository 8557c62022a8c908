import { defineModule } from '../../platform/module';
import { dialogueRoutes } from './dialogue.routes';

/** Text to dialogue. */
export const dialogueModule = defineModule({ name: 'dialogue', routes: [dialogueRoutes] });
