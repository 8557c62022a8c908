/**
 * The knowledge base's front door (issue 28 item 3): what the agents and the conversation socket may use.
 * `searchKnowledge` answers a conversation turn with the best passages of an agent's documents;
 * `findDocuments` checks the ids an agent names; `setAgentDocuments` records which documents an agent uses
 * (its dependents, and the guard on deleting a used document).
 */

// The offline document reader (txt, md, html, epub, pdf, docx; archive limits checked): Studio's from_document.
export { type Block, type Extracted, extractFile, fileTypeOf } from './kb-extract';
export { knowledgeBaseDepsOf } from './knowledge-base.routes';
export {
  findDocuments,
  type KnowledgeBaseDeps,
  searchKnowledge,
  setAgentDocuments,
} from './knowledge-base.service';
