/**
 * What the embedded LLM can do here (issue 28, "The LLM provider"): Qwen2.5-Coder 0.5B Instruct (Q4_K_M,
 * the model store's `qwen2.5-coder-0.5b`) through the embedded provider as agents get it — node-llama-cpp
 * in its own child process, events over IPC:
 * - cold start: process start, model load and a one-token answer, from nothing;
 * - time to first token and tokens per second of a ~100-token answer (median of 3, warm);
 * - tool calls: given one tool (get_weather), three questions that need it — is a valid call made, with
 *   the right city — and one that does not (no call expected);
 * - answering from a passage: three questions about a short text, each answer checked for the fact.
 * Baseline in the same run: the same 100-token request through the OpenAI-compatible adapter against the
 * scripted local server (test/scripted-llm.ts), an LLM that answers at once: the floor of the plumbing.
 * LLM_THREADS sets the model's threads (default 1, as the server's). "tokens per CPU second" is what the
 * model costs whatever else runs: with spare cores, at most that many tokens/s per thread.
 */
import fs from 'node:fs';
import os from 'node:os';
import pino from 'pino';
import { modelFiles } from '../apps/server/src/platform/models/model-store';
import { EMBEDDED_LLM_MODEL, EmbeddedLlm } from '../apps/server/src/providers/llm/embedded-llm';
import type { ChatRequest, LlmEvent, LlmProvider } from '../apps/server/src/providers/llm/llm-provider';
import { OpenAiLlm } from '../apps/server/src/providers/llm/openai-llm';
import { startScriptedLlm } from '../apps/server/src/test/scripted-llm';
import { descendants, rssMb } from './processes';

const THREADS = Number(process.env.LLM_THREADS ?? 1);

interface Timed {
  events: LlmEvent[];
  text: string;
  firstMs: number;
  totalMs: number;
  tokens: number;
}

async function timed(llm: LlmProvider, request: ChatRequest): Promise<Timed> {
  const started = performance.now();
  let first: number | undefined;
  const events: LlmEvent[] = [];
  for await (const event of llm.chat(request)) {
    first ??= performance.now();
    events.push(event);
  }
  const end = performance.now();
  const done = events.find((e) => e.type === 'done');
  return {
    events,
    text: events.map((e) => (e.type === 'text' ? e.delta : '')).join(''),
    firstMs: (first ?? end) - started,
    totalMs: end - started,
    tokens: done?.type === 'done' ? (done.usage.completionTokens ?? 0) : 0,
  };
}

/** CPU seconds (user + system) this process's children have used so far, from /proc. */
function childrenCpuSeconds(): number {
  let ticks = 0;
  for (const pid of descendants(process.pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100; // USER_HZ
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const LONG_ANSWER: ChatRequest = {
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Tell me about the history of the bicycle in about 80 words.' },
  ],
  maxTokens: 100,
};

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Get the current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'the city name' } },
    required: ['city'],
  },
};
const TOOL_QUESTIONS: { question: string; city: string | null }[] = [
  { question: 'What is the weather like in Paris right now?', city: 'paris' },
  { question: 'Is it raining in Tokyo today?', city: 'tokyo' },
  { question: 'How warm is it in Berlin at the moment?', city: 'berlin' },
  { question: 'Tell me a short joke about cats.', city: null },
];

const PASSAGE =
  'Parla Bakery opens at 7 am on weekdays and at 9 am on Saturdays; it is closed on Sundays. A loaf of sourdough costs 4.50 euros. The bakery is at 12 Rue des Lilas, next to the Lilas metro station. Orders for cakes must be placed two days in advance.';
const PASSAGE_QUESTIONS: { question: string; fact: RegExp }[] = [
  { question: 'What time does the bakery open on Saturday?', fact: /\b9\b|nine/i },
  { question: 'How much is a loaf of sourdough?', fact: /4[.,]50/ },
  { question: 'How far ahead do I need to order a cake?', fact: /two days|2 days/i },
];

export async function run(): Promise<void> {
  const files = modelFiles(EMBEDDED_LLM_MODEL);
  if (!files.available) {
    console.log(`skipped: ${files.reason}`);
    return;
  }
  console.log(
    `model ${EMBEDDED_LLM_MODEL}, ${THREADS} threads, ${os.cpus().length} cores; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );

  // Baseline: the plumbing with an LLM that answers at once.
  const scripted = await startScriptedLlm();
  const viaServer = new OpenAiLlm({
    url: scripted.url,
    apiKey: undefined,
    model: 'scripted',
    timeoutMs: 10_000,
    contextTokens: 8192,
  });
  const baseline: number[] = [];
  for (let i = 0; i < 3; i++) {
    scripted.enqueue({ text: 'The bicycle was invented in the nineteenth century. '.repeat(8) });
    baseline.push((await timed(viaServer, LONG_ANSWER)).firstMs);
  }
  await scripted.close();

  const llm = new EmbeddedLlm({
    modelPath: files.files[`${EMBEDDED_LLM_MODEL}/model.gguf`] as string,
    threads: THREADS,
    contextTokens: 4096,
    timeoutMs: 300_000,
    logger: pino({ level: 'silent' }),
  });
  try {
    const cold = await timed(llm, { messages: [{ role: 'user', content: 'Say OK.' }], maxTokens: 1 });
    console.log(`cold start (process, model load, one token): ${(cold.totalMs / 1000).toFixed(2)} s`);

    const memory = descendants(process.pid).reduce((sum, pid) => sum + rssMb(pid), 0);
    console.log(`resident memory of the model's process: ${Math.round(memory)} MB`);
    const runs: Timed[] = [];
    const cpuBefore = childrenCpuSeconds();
    for (let i = 0; i < 3; i++) runs.push(await timed(llm, { ...LONG_ANSWER, temperature: 0.7 }));
    const cpu = childrenCpuSeconds() - cpuBefore;
    const tokens = runs.reduce((sum, r) => sum + r.tokens, 0);
    const firstMs = median(runs.map((r) => r.firstMs));
    const rates = runs.map((r) => r.tokens / ((r.totalMs - r.firstMs) / 1000));
    console.log(
      `100-token answer: first token ${Math.round(firstMs)} ms (baseline, instant scripted server: ${Math.round(median(baseline))} ms, ${(firstMs / median(baseline)).toFixed(0)}×); ${median(rates).toFixed(1)} tokens/s (runs: ${rates.map((r) => r.toFixed(1)).join(', ')}; ${runs.map((r) => r.tokens).join(', ')} tokens)`,
    );
    // What an idle machine would give: the model's own CPU time per token (its threads together).
    console.log(
      `  CPU: ${cpu.toFixed(1)} s for ${tokens} tokens and 3 prompts: ${(tokens / cpu).toFixed(1)} tokens per CPU second (with ${THREADS} idle cores, at most ~${((THREADS * tokens) / cpu).toFixed(0)} tokens/s)`,
    );
    console.log(`  sample: ${JSON.stringify(runs[0]?.text.slice(0, 160))}`);

    let toolOk = 0;
    for (const { question, city } of TOOL_QUESTIONS) {
      const answer = await timed(llm, {
        messages: [
          { role: 'system', content: 'You are a helpful voice assistant. Use the tools when they help.' },
          { role: 'user', content: question },
        ],
        tools: [WEATHER_TOOL],
        maxTokens: 80,
      });
      const calls = answer.events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
      const call = calls[0];
      const args = call && !call.argumentsInvalid ? (call.arguments as { city?: unknown }) : undefined;
      // No call wanted: no call, and no call-like JSON spoken as text either.
      const good =
        city === null
          ? calls.length === 0 && !/^\s*[{<]/.test(answer.text)
          : call?.name === 'get_weather' &&
            String(args?.city ?? '')
              .toLowerCase()
              .includes(city);
      if (good) toolOk += 1;
      console.log(
        `tool: ${JSON.stringify(question)} → ${call ? `${call.name}(${JSON.stringify(call.arguments)})` : `text ${JSON.stringify(answer.text.slice(0, 80))}`} ${good ? 'ok' : 'WRONG'} (${(answer.totalMs / 1000).toFixed(1)} s)`,
      );
    }
    console.log(`tool calls right: ${toolOk} of ${TOOL_QUESTIONS.length}`);

    let factsOk = 0;
    for (const { question, fact } of PASSAGE_QUESTIONS) {
      const answer = await timed(llm, {
        messages: [
          {
            role: 'system',
            content: `You are a helpful voice assistant for a bakery. Answer in one short sentence using only this information:\n${PASSAGE}`,
          },
          { role: 'user', content: question },
        ],
        maxTokens: 60,
      });
      const good = fact.test(answer.text);
      if (good) factsOk += 1;
      console.log(
        `passage: ${JSON.stringify(question)} → ${JSON.stringify(answer.text.trim())} ${good ? 'ok' : 'WRONG'} (first token ${Math.round(answer.firstMs)} ms)`,
      );
    }
    console.log(`answers from the passage right: ${factsOk} of ${PASSAGE_QUESTIONS.length}`);
    console.log(`load average at the end ${os.loadavg()[0]?.toFixed(1)}`);
  } finally {
    await llm.close();
  }
}
