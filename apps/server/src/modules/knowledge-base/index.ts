/**
 * The knowledge base's front door (issue 28 item 3): what the agents and the conversation socket may use.
 * `searchKnowledge` answers a conversation turn with the best passages of an agent's documents;
 * `findDocuments` checks the ids an agent names; `setAgentDocuments` records which documents an agent uses
 * (its dependents, and the guard on deleting a used document).
 */
export { knowledgeBaseDepsOf } from './knowledge-base.routes';
export {
  findDocuments,
  type KnowledgeBaseDeps,
  searchKnowledge,
  setAgentDocuments,
} from './knowledge-base.service';
