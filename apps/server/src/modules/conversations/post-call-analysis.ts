import type { ConversationAnalysis, ConversationTranscriptTurn } from '@parla/contracts';
import type { ChatMessage, ChatModel } from './responder';

/*
 * Post-call analysis (issue 28 item 5): when the workspace has a language model and the agent names
 * evaluation criteria or data to collect, the model reads the transcript once the conversation ended and
 * answers each criterion (success, failure or unknown, with why) and each data item (its value, with why),
 * plus a one-sentence summary. A small model's JSON is read leniently; what it leaves out is `unknown`.
 */

export interface AnalysisAsk {
  criteria: { id: string; name: string; prompt: string }[];
  data: {
    id: string;
    type: 'boolean' | 'string' | 'integer' | 'number';
    description: string;
    enum?: string[] | null;
  }[];
}

/** The transcript as the model reads it: one line a turn. */
function transcriptText(turns: ConversationTranscriptTurn[]): string {
  return turns
    .filter((turn) => turn.message)
    .map((turn) => `${turn.role === 'agent' ? 'Agent' : 'User'}: ${turn.message}`)
    .join('\n');
}

export function analysisMessages(turns: ConversationTranscriptTurn[], ask: AnalysisAsk): ChatMessage[] {
  const shape = {
    summary: 'one sentence',
    criteria: Object.fromEntries(
      ask.criteria.map((c) => [c.id, { result: 'success|failure|unknown', rationale: '…' }]),
    ),
    data: Object.fromEntries(ask.data.map((d) => [d.id, { value: `${d.type} or null`, rationale: '…' }])),
  };
  const lines = [
    'You review a finished phone conversation between an agent and a user. Answer with one JSON object only, shaped like:',
    JSON.stringify(shape),
  ];
  if (ask.criteria.length > 0)
    lines.push(
      `Criteria (success if the conversation met it):\n${ask.criteria.map((c) => `- ${c.id}: ${c.prompt}`).join('\n')}`,
    );
  if (ask.data.length > 0)
    lines.push(
      `Data to collect from what the user said (null when not said):\n${ask.data
        .map(
          (d) =>
            `- ${d.id} (${d.type}${d.enum?.length ? `, one of ${d.enum.join(', ')}` : ''}): ${d.description}`,
        )
        .join('\n')}`,
    );
  return [
    { role: 'system', content: lines.join('\n\n') },
    { role: 'user', content: `The conversation:\n${transcriptText(turns)}` },
  ];
}

/** The first JSON object in a model's answer (it may wrap it in prose or a code fence), or undefined. */
function firstObject(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const value = JSON.parse(text.slice(start, end + 1)) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A data item's value in its type, or null. */
function typed(value: unknown, type: AnalysisAsk['data'][number]['type']): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean')
    return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : null;
  if (type === 'integer' || type === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) return null;
    return type === 'integer' ? Math.round(n) : n;
  }
  return typeof value === 'string' ? value.slice(0, 2000) : JSON.stringify(value).slice(0, 2000);
}

/** The model's answer as the conversation's analysis; what it left out or got wrong is `unknown`. */
export function parseAnalysis(text: string, ask: AnalysisAsk): ConversationAnalysis {
  const answer = firstObject(text) ?? {};
  const criteria = record(answer.criteria);
  const data = record(answer.data);
  const evaluation = Object.fromEntries(
    ask.criteria.map((c) => {
      const got = record(criteria[c.id]);
      const result: 'success' | 'failure' | 'unknown' =
        got.result === 'success' || got.result === 'failure' ? got.result : 'unknown';
      const rationale =
        typeof got.rationale === 'string' ? got.rationale.slice(0, 2000) : 'The model did not say.';
      return [c.id, { criteria_id: c.id, result, rationale }];
    }),
  );
  const collected = Object.fromEntries(
    ask.data.map((d) => {
      const got = record(data[d.id]);
      const rationale =
        typeof got.rationale === 'string' ? got.rationale.slice(0, 2000) : 'The model did not say.';
      return [d.id, { data_collection_id: d.id, value: typed(got.value, d.type), rationale }];
    }),
  );
  const results = Object.values(evaluation).map((e) => e.result);
  const call_successful =
    results.length === 0 || results.includes('unknown')
      ? 'unknown'
      : results.every((r) => r === 'success')
        ? 'success'
        : 'failure';
  return {
    call_successful,
    transcript_summary: typeof answer.summary === 'string' ? answer.summary.slice(0, 2000) : '',
    call_summary_title: null,
    evaluation_criteria_results: evaluation,
    data_collection_results: collected,
  };
}

/** Asks the model and reads its answer (a failure is the caller's to log: the conversation stays as it is). */
export async function analyseConversation(
  model: ChatModel,
  turns: ConversationTranscriptTurn[],
  ask: AnalysisAsk,
  signal: AbortSignal,
): Promise<ConversationAnalysis> {
  let text = '';
  for await (const event of model.chat({
    messages: analysisMessages(turns, ask),
    tools: [],
    temperature: 0,
    maxTokens: 600,
    signal,
  }))
    if (event.type === 'text') text += event.text;
  return parseAnalysis(text, ask);
}
