import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error';
import {
  dayRangeToUnix,
  describeDisconnect,
  describeResponseMode,
  describeSessionError,
  describeStartError,
  formatCallDuration,
  formatToolParams,
  talkMessages,
} from './conversation-rules';

describe('conversation rules', () => {
  it('writes call lengths as m:ss, and h:mm:ss past an hour', () => {
    expect(formatCallDuration(0)).toBe('0:00');
    expect(formatCallDuration(42)).toBe('0:42');
    expect(formatCallDuration(725)).toBe('12:05');
    expect(formatCallDuration(3729)).toBe('1:02:09');
  });

  it('says how the agent answered, knowledge-base mode with its reason in plain words', () => {
    expect(describeResponseMode('knowledge_base', 'No language model is configured.')).toBe(
      'Answered from the knowledge base: no language model is configured. Each answer is the passage that best matches what was said.',
    );
    expect(describeResponseMode('knowledge_base', 'LLM_OPENAI_URL is not set')).toMatch(
      /^Answered from the knowledge base: LLM_OPENAI_URL is not set\./,
    );
    expect(describeResponseMode('knowledge_base', null)).toMatch(/no language model was available/);
    expect(describeResponseMode('llm', 'gemma-3-270m')).toBe('Answered by a language model (gemma-3-270m).');
    expect(describeResponseMode('llm', null)).toBe('Answered by a language model.');
  });

  it('turns day pickers into unix bounds that include the whole last day', () => {
    const { after, before } = dayRangeToUnix('2026-03-01', '2026-03-02');
    expect(after).toBe(new Date(2026, 2, 1).getTime() / 1000);
    expect(before).toBe(new Date(2026, 2, 3).getTime() / 1000);
    expect(dayRangeToUnix('', '')).toEqual({});
  });

  it('pretty-prints JSON tool parameters and leaves other text alone', () => {
    expect(formatToolParams('{"city":"Oslo"}')).toBe('{\n  "city": "Oslo"\n}');
    expect(formatToolParams('not json')).toBe('not json');
  });

  it('says why a conversation could not start in plain words', () => {
    expect(describeStartError(new DOMException('Permission denied', 'NotAllowedError'))).toBe(
      talkMessages.microphoneBlocked,
    );
    expect(describeStartError(new DOMException('Requested device not found', 'NotFoundError'))).toBe(
      talkMessages.noMicrophone,
    );
    expect(
      describeStartError(
        new HttpError({
          status: 404,
          message: 'The agent a9 was not found.',
          errorType: 'not_found',
          payload: undefined,
        }),
      ),
    ).toBe('The agent a9 was not found.');
    expect(
      describeStartError(
        new HttpError({ status: 402, message: 'x', errorType: 'quota_exceeded', payload: undefined }),
      ),
    ).toBe(talkMessages.minutesUsedUp);
    // The socket closed before the conversation began: the server's close reason says why.
    const closed = Object.assign(new Error('Connection closed unexpectedly'), {
      closeCode: 1008,
      closeReason: 'The workspace’s conversation minutes for this period are used up.',
    });
    expect(describeStartError(closed)).toBe(
      'The workspace’s conversation minutes for this period are used up.',
    );
    expect(describeStartError(new Error('AudioWorklet is not available'))).toBe(
      `${talkMessages.couldNotStart} AudioWorklet is not available.`,
    );
    expect(describeStartError('nothing useful')).toBe(talkMessages.couldNotStart);
  });

  it('says a running conversation’s protocol errors and its end in plain words', () => {
    expect(describeSessionError('Server error: x', { errorType: 'quota_exceeded' })).toBe(
      talkMessages.minutesUsedUp,
    );
    expect(describeSessionError('Server error: x', { errorType: 'agent_not_found' })).toBe(
      talkMessages.agentNotFound,
    );
    expect(describeSessionError('Server error: The audio is not PCM.', { errorType: 'invalid_audio' })).toBe(
      'The audio is not PCM.',
    );
    expect(describeDisconnect({ reason: 'user' })).toBeNull();
    expect(describeDisconnect({ reason: 'agent' })).toEqual({
      text: 'The agent ended the conversation.',
      isError: false,
    });
    expect(
      describeDisconnect({
        reason: 'error',
        message: 'The connection was closed by the server.',
        closeReason: '',
      }),
    ).toEqual({
      text: 'The connection was closed by the server.',
      isError: true,
    });
  });
});
