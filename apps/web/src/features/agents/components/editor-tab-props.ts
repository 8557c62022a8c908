import type { AgentDraft, FieldErrors } from '../agent-editor-rules';

/** What every editor tab gets: the draft, a way to change it, and the field errors of the last save. */
export interface EditorTabProps {
  draft: AgentDraft;
  edit: (recipe: (draft: AgentDraft) => AgentDraft) => void;
  errors: FieldErrors;
}
