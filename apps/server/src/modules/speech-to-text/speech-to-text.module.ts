import { defineModule, moduleJob } from '../../platform/module';
import { subscribeSpeechToText } from './speech-to-text.events';
import { transcribeJob } from './speech-to-text.jobs';
import { speechToTextRoutes } from './speech-to-text.routes';
import { transcriptShareable } from './speech-to-text.shareable';
import * as tables from './speech-to-text.tables';
import { sttDepsOf } from './transcription.service';

/** Speech to text: transcripts, their exports, and OpenAI's transcriptions (issue 19). */
export const speechToTextModule = defineModule({
  name: 'speech-to-text',
  routes: [speechToTextRoutes],
  jobs: [moduleJob(transcribeJob, sttDepsOf)],
  shareable: [transcriptShareable],
  tables,
  subscribe: subscribeSpeechToText,
});
