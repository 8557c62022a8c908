import { defineModule } from '../../platform/module';
import { knowledgeBaseRoutes } from './knowledge-base.routes';
import * as tables from './knowledge-base.tables';

/** The conversational agents' knowledge base: documents from text, files and pages, chunked and searched. */
export const knowledgeBaseModule = defineModule({
  name: 'knowledge-base',
  routes: [knowledgeBaseRoutes],
  tables,
});
