import { defineModule, moduleJob } from '../../platform/module';
import { embedDocumentJob } from './knowledge-base.jobs';
import { knowledgeBaseRoutes } from './knowledge-base.routes';
import * as tables from './knowledge-base.tables';

/** The conversational agents' knowledge base: documents from text, files and pages, chunked and searched. */
export const knowledgeBaseModule = defineModule({
  name: 'knowledge-base',
  routes: [knowledgeBaseRoutes],
  jobs: [
    moduleJob(embedDocumentJob, (app) => ({
      db: app.database.db,
      embeddings: app.providers.llm.embeddings,
    })),
  ],
  tables,
});
