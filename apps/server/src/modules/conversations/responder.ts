import type { ResponseMode } from '@parla/contracts';
import type { SessionAgent, SessionTool } from './session-agent';

/*
 * How an agent answers a turn (issue 28 "The LLM provider" and item 2): with a language model, streamed,
 * calling tools; or, when no model is there, in knowledge-base mode, with the best-matching passage of
 * its knowledge base. The session speaks what this yields as it comes; the tools are run by the session
 * (it owns the socket a client tool needs and the agent's webhooks), through `runTool`.
 */

/** A message of the conversation as a chat model reads it. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ChatToolCall {
  id: string;
  name: string;
  /** Parsed JSON arguments (an object), or the raw text the model wrote when it was not JSON. */
  arguments: Record<string, unknown> | string;
}

/** What a chat model streams. */
export type ChatEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ChatToolCall }
  | { type: 'done'; finishReason: string };

/** The language model the session talks to (providers/llm, adapted in conversation-deps.ts). */
export interface ChatModel {
  /** Which model answers (the conversation's metadata says it). */
  readonly name: string;
  chat(request: {
    messages: ChatMessage[];
    tools: { name: string; description: string; parameters: Record<string, unknown> }[];
    temperature: number;
    maxTokens: number;
    signal: AbortSignal;
  }): AsyncIterable<ChatEvent>;
}

/** A passage of the agent's knowledge base. */
export interface Passage {
  documentId: string;
  documentName: string;
  chunkId: string;
  text: string;
  score: number;
  /** How it was found: `full_text`, or the embedding model whose vectors ranked it (issue 28 item 3). */
  retrieval?: string;
}

export type SearchKnowledge = (query: string, limit: number) => Promise<Passage[]>;

/** What a turn yields to the session: text to speak as it comes, tool calls it runs, the passages used. */
export type TurnEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ChatToolCall; tool: SessionTool | undefined }
  | { type: 'retrieved'; query: string; passages: Passage[]; latencyMs: number };

/** A tool's answer, as the model is told it. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
  /** The tool ended the turn (end_call, skip_turn): no more model rounds. */
  endsTurn?: boolean;
}

/** The most model rounds in a turn (each tool answer is one more). */
const MAX_ROUNDS = 4;
/** The passages a language model is given each turn. */
const PASSAGES_FOR_MODEL = 3;

/** What the agent says in knowledge-base mode when no passage matches. */
export const NO_PASSAGE_ANSWER =
  "I'm sorry, I couldn't find anything about that in what I know. Could you ask it another way?";

/** The system tools a language model may call, described for it (issue 28 item 4). */
export const SYSTEM_TOOLS: Record<string, { description: string; parameters: Record<string, unknown> }> = {
  end_call: {
    description:
      'End the call when the user says goodbye or the conversation is complete. Say goodbye first.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'Why the call ends' } },
    },
  },
  language_detection: {
    description: 'Switch the conversation to the language the user speaks.',
    parameters: {
      type: 'object',
      properties: { language: { type: 'string', description: 'ISO 639-1 code, e.g. "es"' } },
      required: ['language'],
    },
  },
  skip_turn: {
    description: 'Say nothing this turn, when the user asks for a moment or is not talking to you.',
    parameters: { type: 'object', properties: {} },
  },
  transfer_to_agent: {
    description: 'Hand the conversation to another agent of this workspace.',
    parameters: {
      type: 'object',
      properties: { agent_id: { type: 'string' }, reason: { type: 'string' } },
      required: ['agent_id'],
    },
  },
};

/** The first passage's sentences, up to about `max` characters: what knowledge-base mode says. */
export function passageAnswer(text: string, max = 400): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const sentences = clean.match(/[^.!?]+[.!?]+["')\]]*\s*/g) ?? [clean];
  let out = '';
  for (const sentence of sentences) {
    if (out && out.length + sentence.length > max) break;
    out += sentence;
  }
  return (out || clean.slice(0, max)).trim();
}

/** The system message: the agent's prompt, the passages found for this turn, and the language. */
export function systemMessage(agent: SessionAgent, passages: Passage[]): string {
  const parts = [agent.prompt.trim() || 'You are a helpful voice assistant.'];
  parts.push(
    'You are speaking with the user by voice: answer in short spoken sentences, without markdown, lists or emoji.',
  );
  if (agent.language && agent.language !== 'en') parts.push(`Answer in the language "${agent.language}".`);
  if (passages.length > 0) {
    parts.push(
      `Use these passages from your knowledge base when they answer the question:\n${passages
        .map((p, i) => `[${i + 1}] (${p.documentName}) ${p.text.replace(/\s+/g, ' ').trim()}`)
        .join('\n')}`,
    );
  }
  return parts.join('\n\n');
}

export interface Responder {
  readonly mode: ResponseMode;
  /** Why this mode (the model's name, or why there is none): the UI and the metadata say it. */
  readonly reason: string;
  /**
   * One turn: the history so far ends with the user's message. Yields text as it comes and tool calls;
   * `runTool` answers each (the session runs it), and the model is asked again with the answers.
   */
  turn(
    history: ChatMessage[],
    runTool: (call: ChatToolCall, tool: SessionTool | undefined) => Promise<ToolAnswer>,
    signal: AbortSignal,
  ): AsyncIterable<TurnEvent>;
}

/** The last user message of a history (what is searched for). */
function lastUserText(history: ChatMessage[]): string {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const message = history[i];
    if (message?.role === 'user') return message.content;
  }
  return '';
}

/** Knowledge-base mode: each turn answers with the best-matching passage (no language model). */
export function knowledgeBaseResponder(search: SearchKnowledge, reason: string): Responder {
  return {
    mode: 'knowledge_base',
    reason,
    async *turn(history) {
      const query = lastUserText(history);
      const started = performance.now();
      const passages = query.trim() ? await search(query, 1) : [];
      yield { type: 'retrieved', query, passages, latencyMs: performance.now() - started };
      const best = passages[0];
      yield { type: 'text', text: best ? passageAnswer(best.text) : NO_PASSAGE_ANSWER };
    },
  };
}

/** Language-model mode: the prompt, this turn's passages and the history, streamed, with tool rounds. */
export function modelResponder(
  model: ChatModel,
  agent: SessionAgent,
  search: SearchKnowledge | undefined,
): Responder {
  const tools = agent.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
  return {
    mode: 'llm',
    reason: model.name,
    async *turn(history, runTool, signal) {
      const query = lastUserText(history);
      let passages: Passage[] = [];
      if (search && query.trim()) {
        const started = performance.now();
        passages = await search(query, PASSAGES_FOR_MODEL);
        yield { type: 'retrieved', query, passages, latencyMs: performance.now() - started };
      }
      const system: ChatMessage = { role: 'system', content: systemMessage(agent, passages) };
      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        const calls: ChatToolCall[] = [];
        let text = '';
        for await (const event of model.chat({
          messages: [system, ...history],
          tools,
          temperature: agent.temperature,
          maxTokens: agent.maxTokens,
          signal,
        })) {
          if (event.type === 'text') {
            text += event.text;
            yield { type: 'text', text: event.text };
          } else if (event.type === 'tool_call') calls.push(event.call);
        }
        history.push({ role: 'assistant', content: text, ...(calls.length ? { toolCalls: calls } : {}) });
        if (calls.length === 0) return;
        let ends = false;
        const answered = new Set<string>();
        try {
          for (const call of calls) {
            // A call to a tool the agent does not have (a prompt-injected name) is refused, never run.
            const tool = agent.tools.find((t) => t.name === call.name);
            yield { type: 'tool_call', call, tool };
            const answer = await runTool(call, tool);
            history.push({ role: 'tool', toolCallId: call.id, content: answer.text });
            answered.add(call.id);
            if (answer.endsTurn) ends = true;
          }
        } finally {
          // An interrupted round still answers every call it made: a model server refuses a history
          // whose tool calls have no answers, which would fail the next turn.
          for (const call of calls)
            if (!answered.has(call.id))
              history.push({ role: 'tool', toolCallId: call.id, content: 'Interrupted by the user.' });
        }
        if (ends || signal.aborted) return;
      }
    },
  };
}
