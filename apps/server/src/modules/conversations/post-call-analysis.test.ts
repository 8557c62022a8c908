import { describe, expect, it } from 'vitest';
import { type AnalysisAsk, analysisMessages, parseAnalysis } from './post-call-analysis';

const ask: AnalysisAsk = {
  criteria: [
    { id: 'answered', name: 'Answered', prompt: 'The agent answered the question.' },
    { id: 'polite', name: 'Polite', prompt: 'The agent was polite.' },
  ],
  data: [
    { id: 'order', type: 'string', description: 'The order number', enum: null },
    { id: 'items', type: 'integer', description: 'How many items', enum: null },
    { id: 'refund', type: 'boolean', description: 'Wants a refund', enum: null },
  ],
};

describe('post-call analysis', () => {
  it('asks for one JSON object naming every criterion and data item, with the transcript', () => {
    const [system, user] = analysisMessages(
      [
        {
          role: 'user',
          message: 'Where is order A-42?',
          time_in_call_secs: 1,
          tool_calls: [],
          tool_results: [],
          feedback: null,
        },
        {
          role: 'agent',
          message: 'It shipped.',
          time_in_call_secs: 3,
          tool_calls: [],
          tool_results: [],
          feedback: null,
        },
      ],
      ask,
    );
    expect(system?.content).toMatch(/- answered: The agent answered the question\./);
    expect(system?.content).toMatch(/- items \(integer\): How many items/);
    expect(user?.content).toBe('The conversation:\nUser: Where is order A-42?\nAgent: It shipped.');
  });

  it('reads a fenced, chatty answer; types the values; anything missing or wrong is unknown or null', () => {
    const text = `Sure! Here it is:\n\`\`\`json\n${JSON.stringify({
      summary: 'The user asked about an order.',
      criteria: {
        answered: { result: 'success', rationale: 'It said it shipped.' },
        polite: { result: 'maybe' },
      },
      data: {
        order: { value: 'A-42', rationale: 'said' },
        items: { value: '2.6' },
        refund: { value: 'yes' },
      },
    })}\n\`\`\``;
    const analysis = parseAnalysis(text, ask);
    expect(analysis.transcript_summary).toBe('The user asked about an order.');
    expect(analysis.evaluation_criteria_results.answered).toEqual({
      criteria_id: 'answered',
      result: 'success',
      rationale: 'It said it shipped.',
    });
    expect(analysis.evaluation_criteria_results.polite?.result).toBe('unknown');
    expect(analysis.call_successful).toBe('unknown');
    expect(analysis.data_collection_results.order?.value).toBe('A-42');
    expect(analysis.data_collection_results.items?.value).toBe(3);
    expect(analysis.data_collection_results.refund?.value).toBeNull();
  });

  it('is a success only when every criterion is; prose without JSON leaves everything unknown', () => {
    const all = JSON.stringify({
      criteria: { answered: { result: 'success' }, polite: { result: 'failure', rationale: 'Rude.' } },
    });
    expect(parseAnalysis(all, ask).call_successful).toBe('failure');
    const none = parseAnalysis('I cannot tell.', ask);
    expect(none.call_successful).toBe('unknown');
    expect(Object.values(none.data_collection_results).map((d) => d.value)).toEqual([null, null, null]);
  });
});
