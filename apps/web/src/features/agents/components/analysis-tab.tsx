import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { EditorSection, SelectField, TextAreaField } from '../../../ui/editor-fields';
import { TextField } from '../../../ui/field';
import { type AgentDraft, errorAt, withPlatform } from '../agent-editor-rules';
import type { EditorTabProps } from './editor-tab-props';

type Criterion = AgentDraft['platform_settings']['evaluation']['criteria'][number];
type DataItem = AgentDraft['platform_settings']['data_collection'][string];
type DataType = DataItem['type'];

const DATA_TYPES: ReadonlyArray<{ value: DataType; label: string }> = [
  { value: 'string', label: 'Text' },
  { value: 'boolean', label: 'Yes or no' },
  { value: 'integer', label: 'Whole number' },
  { value: 'number', label: 'Number' },
];
const DATA_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An id for a new criterion that none of `criteria` has. */
export function nextCriterionId(criteria: readonly Criterion[]): string {
  const taken = new Set(criteria.map((c) => c.id));
  let n = criteria.length + 1;
  while (taken.has(`criterion_${n}`)) n += 1;
  return `criterion_${n}`;
}

/**
 * The Analysis tab (issue 28 item 5): after each call the LLM judges the conversation against the criteria
 * and pulls out the data items, shown with the conversation in the call history.
 */
export function AnalysisTab({ draft, edit, errors }: EditorTabProps) {
  const id = useId();
  const criteria = draft.platform_settings.evaluation.criteria;
  const data = draft.platform_settings.data_collection;
  const setCriteria = (next: Criterion[]) => edit((d) => withPlatform(d, 'evaluation', { criteria: next }));
  const setData = (next: AgentDraft['platform_settings']['data_collection']) =>
    edit((d) => withPlatform(d, 'data_collection', next));
  const [item, setItem] = useState({ id: '', type: 'string' as DataType, description: '' });
  const [itemError, setItemError] = useState<string>();

  const handleAddItem = (event: FormEvent) => {
    event.preventDefault();
    const key = item.id.trim();
    if (!DATA_ID.test(key)) {
      setItemError('An identifier is 1 to 64 letters, digits, _ and - characters.');
      return;
    }
    if (key in data) {
      setItemError(`There is already an item called ${key}.`);
      return;
    }
    if (item.description.trim() === '') {
      setItemError('Describe what to pull out of the conversation.');
      return;
    }
    setItemError(undefined);
    setData({ ...data, [key]: { type: item.type, description: item.description.trim(), enum: null } });
    setItem({ id: '', type: 'string', description: '' });
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-fg-muted">
        After each call the LLM reads the transcript, judges it against your criteria and pulls out the data
        you ask for; the results are shown with the conversation. This needs an LLM: in knowledge-base mode
        there is no analysis.
      </p>
      <EditorSection
        title="Evaluation criteria"
        description="What a good conversation achieves, each judged success, failure or unknown."
        actions={
          <Button
            variant="secondary"
            size="sm"
            disabled={criteria.length >= 30}
            onClick={() =>
              setCriteria([
                ...criteria,
                {
                  id: nextCriterionId(criteria),
                  name: '',
                  type: 'prompt',
                  conversation_goal_prompt: '',
                  use_knowledge_base: false,
                },
              ])
            }
          >
            Add criterion
          </Button>
        }
      >
        {criteria.length === 0 && <p className="text-sm text-fg-muted">No criteria: calls are not judged.</p>}
        {criteria.map((criterion, index) => {
          const base = `platform_settings.evaluation.criteria.${index}`;
          const change = (patch: Partial<Criterion>) =>
            setCriteria(criteria.map((c, at) => (at === index ? { ...c, ...patch } : c)));
          return (
            <fieldset key={criterion.id} className="flex flex-col gap-3 rounded-lg border border-line p-3">
              <legend className="px-1 text-sm font-medium">Criterion {index + 1}</legend>
              <TextField
                label="Name"
                value={criterion.name}
                maxLength={200}
                placeholder="Solved the caller’s problem"
                onChange={(event) => change({ name: event.target.value })}
                error={errorAt(errors, `${base}.name`)}
              />
              <TextAreaField
                label="What counts as success"
                rows={2}
                value={criterion.conversation_goal_prompt}
                placeholder="The caller’s question was answered and they did not ask for a person."
                onChange={(event) => change({ conversation_goal_prompt: event.target.value })}
                error={errorAt(errors, `${base}.conversation_goal_prompt`)}
              />
              <div>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove criterion ${index + 1}`}
                  onClick={() => setCriteria(criteria.filter((_, at) => at !== index))}
                >
                  Remove
                </Button>
              </div>
            </fieldset>
          );
        })}
      </EditorSection>
      <EditorSection
        title="Data collection"
        description="Facts to pull out of each conversation (a name, an order number, whether a booking was made)."
      >
        {Object.keys(data).length === 0 && <p className="text-sm text-fg-muted">No data items.</p>}
        {Object.keys(data).length > 0 && (
          <ul
            aria-label="Data items"
            className="flex flex-col divide-y divide-line rounded-lg border border-line"
          >
            {Object.entries(data).map(([key, value]) => (
              <li key={key} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-end">
                <div className="flex min-w-0 flex-col sm:w-40">
                  <span className="text-xs text-fg-muted">Identifier</span>
                  <span className="truncate font-mono text-sm">{key}</span>
                </div>
                <SelectField
                  label={`Type of ${key}`}
                  className="sm:w-40"
                  value={value.type}
                  options={DATA_TYPES}
                  onChange={(event) =>
                    setData({ ...data, [key]: { ...value, type: event.target.value as DataType } })
                  }
                />
                <TextField
                  label={`Description of ${key}`}
                  className="min-w-0 flex-1"
                  value={value.description}
                  maxLength={2000}
                  onChange={(event) =>
                    setData({ ...data, [key]: { ...value, description: event.target.value } })
                  }
                  error={errorAt(errors, `platform_settings.data_collection.${key}`)}
                />
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${key}`}
                  onClick={() => setData(Object.fromEntries(Object.entries(data).filter(([k]) => k !== key)))}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={handleAddItem} noValidate className="flex flex-col gap-3 rounded-lg bg-subtle p-3">
          <div className="grid gap-3 sm:grid-cols-[10rem_10rem_1fr]">
            <TextField
              id={`${id}-item-id`}
              label="Identifier"
              placeholder="order_number"
              value={item.id}
              maxLength={64}
              onChange={(event) => setItem({ ...item, id: event.target.value })}
            />
            <SelectField
              label="Type"
              value={item.type}
              options={DATA_TYPES}
              onChange={(event) => setItem({ ...item, type: event.target.value as DataType })}
            />
            <TextField
              label="Description"
              placeholder="The order number the caller gives"
              value={item.description}
              maxLength={2000}
              onChange={(event) => setItem({ ...item, description: event.target.value })}
            />
          </div>
          {itemError && (
            <p role="alert" className="text-sm text-danger">
              {itemError}
            </p>
          )}
          <div>
            <Button type="submit" variant="secondary" size="sm">
              Add data item
            </Button>
          </div>
        </form>
        {errorAt(errors, 'platform_settings.data_collection') && (
          <p role="alert" className="text-sm text-danger">
            {errorAt(errors, 'platform_settings.data_collection')}
          </p>
        )}
      </EditorSection>
    </div>
  );
}
