import { describe, expect, it } from 'vitest';
import { readRecordedTurns } from '../../../src/agent/replay/recorded-turns.js';
import {
  ReplayDiverged,
  ReplayModelClient,
} from '../../../src/agent/replay/replay-model-client.js';
import { readSessionFile } from '../../../src/agent/session/read-session-file.js';
import { recordAnswers } from '../../../src/agent/session/record-answers.js';
import type { SessionFileWriter } from '../../../src/agent/session/session-file-writer.js';
import { createSession } from '../../../src/agent/session/session-store.js';
import type { RecordedAnswer, RecordedFailure } from '../../../src/agent/session/session-types.js';
import { ReplayedFailure } from '../../../src/agent/replay/replayed-failure.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import type {
  Message,
  ModelClient,
  ModelRequest,
  StreamEvent,
} from '../../../src/providers/types.js';
import { answer, calls, makeDirs, results, usage, user } from '../session/session-fixtures.js';

const REF = parseModelId('anthropic::claude-haiku-4-5');

function request(messages: Message[]): ModelRequest {
  return { system: 'sys', messages, maxTokens: 100 };
}

/** A provider stand-in that streams exactly these events. */
function streaming(events: StreamEvent[]): ModelClient {
  return {
    ref: REF,
    async *stream() {
      for (const event of events) {
        if (event.type === 'stop' && event.reason === 'other') throw new Error('cut mid-answer');
        yield event;
      }
    },
    complete: () => Promise.reject(new Error('not used')),
  };
}

async function drain(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Records one streamed answer through recordAnswers into a real session file, and reads it back. */
async function recordOne(messages: Message[], events: StreamEvent[]) {
  const dirs = makeDirs();
  const writer = await createSession({
    stateDir: dirs.stateDir,
    workspaceRoot: dirs.workspace,
    model: REF.id,
    oyVersion: '0',
  });
  for (const message of messages) await writer.appendMessage(1, message);
  const seen = await drain(
    recordAnswers(streaming(events), writer, 1, (text) => text).stream(request(messages)),
  );
  await writer.endTurn(1, usage(1), null);
  const content = await readSessionFile(writer.file);
  return { seen, turns: readRecordedTurns(content!) };
}

/** As recordOne, for a stream that fails: the error it threw, and what the session holds. */
async function recordFailed(messages: Message[], events: StreamEvent[]) {
  let error: unknown;
  const dirs = makeDirs();
  const writer = await createSession({
    stateDir: dirs.stateDir,
    workspaceRoot: dirs.workspace,
    model: REF.id,
    oyVersion: '0',
  });
  for (const message of messages) await writer.appendMessage(1, message);
  try {
    await drain(
      recordAnswers(streaming(events), writer, 1, (text) => text).stream(request(messages)),
    );
  } catch (caught) {
    error = caught;
  }
  await writer.endTurn(1, usage(1), null);
  const content = await readSessionFile(writer.file);
  return {
    error: () => {
      throw error;
    },
    turns: readRecordedTurns(content!),
  };
}

const THOUGHT = [
  { type: 'thinking_delta', text: 'Let me ' },
  { type: 'text_delta', text: 'Hel' },
  { type: 'thinking_delta', text: 'think.' },
  { type: 'text_delta', text: 'lo 👋' },
  {
    type: 'thinking',
    part: { type: 'thinking', source: 'anthropic', text: 'Let me think.', signature: 'sig' },
  },
  { type: 'thinking', part: { type: 'redacted_thinking', source: 'anthropic', data: 'opaque' } },
  { type: 'tool_call', call: { id: 't1', name: 'read', arguments: { path: 'a' } } },
  { type: 'usage', usage: usage(12, 3) },
  { type: 'stop', reason: 'tool_use' },
] as const satisfies StreamEvent[];

describe('recording answers and replaying them', () => {
  it('streams a recorded answer back event for event, deltas in their order', async () => {
    const prompt = [user('hello')];
    const { seen, turns } = await recordOne(prompt, [...THOUGHT]);
    expect(seen).toEqual(THOUGHT);
    expect(turns).toHaveLength(1);
    const replay = new ReplayModelClient(REF);
    replay.startTurn(turns[0]!);
    expect(await drain(replay.stream(request(prompt)))).toEqual(THOUGHT);
    expect(replay.checkTurnEnded()).toBeUndefined();
  });

  it('keeps streamed thinking that is not the parts joined, and records a cut answer as a failed call', async () => {
    const odd: StreamEvent[] = [
      { type: 'thinking_delta', text: 'shown only' },
      { type: 'text_delta', text: 'ok' },
      { type: 'usage', usage: usage(1) },
      { type: 'stop', reason: 'end_turn' },
    ];
    const { turns } = await recordOne([user('x')], odd);
    expect(turns[0]!.answers[0]!.shownThinking).toBe('shown only');
    const replay = new ReplayModelClient(REF);
    replay.startTurn(turns[0]!);
    expect(await drain(replay.stream(request([user('x')])))).toEqual(odd);

    const cut: StreamEvent[] = [
      { type: 'text_delta', text: 'half' },
      { type: 'stop', reason: 'other' },
    ];
    const failed = await recordFailed([user('y')], cut);
    expect(failed.error).toThrow('cut mid-answer');
    expect(failed.turns[0]!.answers).toEqual([
      {
        input: expect.any(Array),
        text: 'half',
        deltas: [4],
        failure: { type: 'error', kind: 'internal', message: 'cut mid-answer' },
      },
    ]);
    // Replayed: the same delta, then the same error.
    const again = new ReplayModelClient(REF);
    again.startTurn(failed.turns[0]!);
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of again.stream(request([user('y')]))) seen.push(event);
      })(),
    ).rejects.toThrow(ReplayedFailure);
    expect(seen).toEqual([{ type: 'text_delta', text: 'half' }]);
    expect(again.checkTurnEnded()).toBeUndefined();
  });

  it('replays a cancelled call by cancelling the turn, with what streamed before it', async () => {
    const recorded: RecordedFailure = {
      input: [],
      text: 'par',
      deltas: [-2, 3],
      shownThinking: 'hm',
      failure: { type: 'cancelled' },
    };
    const controller = new AbortController();
    const replay = new ReplayModelClient(REF);
    replay.startTurn({ turn: 1, prompt: 'p', answers: [recorded] }, () => controller.abort());
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of replay.stream(request([]), { signal: controller.signal }))
          seen.push(event);
      })(),
    ).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
    expect(seen).toEqual([
      { type: 'thinking_delta', text: 'hm' },
      { type: 'text_delta', text: 'par' },
    ]);
    // complete() fails where the recording failed.
    const whole = new ReplayModelClient(REF);
    whole.startTurn({
      turn: 1,
      prompt: 'p',
      answers: [{ ...recorded, failure: { type: 'error', kind: 'overloaded', message: 'busy' } }],
    });
    await expect(whole.complete(request([]))).rejects.toMatchObject({
      kind: 'overloaded',
      message: 'busy',
    });
  });

  it('answers complete() from a recorded answer, and streams a whole answer as one delta', async () => {
    const whole: RecordedAnswer = {
      input: [],
      text: 'summary',
      toolCalls: [],
      usage: usage(5),
      stopReason: 'end_turn',
    };
    const replay = new ReplayModelClient(REF);
    replay.startTurn({ turn: 1, prompt: 'p', answers: [whole, whole] });
    // No input to compare: a request with no messages gives none either.
    expect(await replay.complete(request([]))).toEqual({
      text: 'summary',
      toolCalls: [],
      usage: usage(5),
      stopReason: 'end_turn',
    });
    expect(await drain(replay.stream(request([])))).toEqual([
      { type: 'text_delta', text: 'summary' },
      { type: 'usage', usage: usage(5) },
      { type: 'stop', reason: 'end_turn' },
    ]);
  });

  it('diverges when a tool result, the prompt or the number of calls is not as recorded', async () => {
    const turn1 = [user('go'), calls('c1', 'c2'), results('c1', 'c2')];
    const { turns } = await recordOne(turn1, [
      { type: 'text_delta', text: 'two results' },
      { type: 'usage', usage: usage(1) },
      { type: 'stop', reason: 'end_turn' },
    ]);
    const recorded = turns[0]!;
    const attempt = (messages: Message[]) => {
      const replay = new ReplayModelClient(REF);
      replay.startTurn(recorded);
      return drain(replay.stream(request(messages)));
    };
    // The same input is replayed (a control).
    const timed: Message[] = [
      ...turn1.slice(0, 2),
      {
        role: 'tool',
        results: [
          { toolCallId: 'c1', content: '{"ok":true,"id":"c1"}' },
          { toolCallId: 'c2', content: '{"ok":true,"id":"c2"}' },
        ],
      },
    ];
    await expect(attempt(timed)).resolves.toHaveLength(3);
    const changed: Message[] = [
      ...turn1.slice(0, 2),
      {
        role: 'tool',
        results: [
          { toolCallId: 'c1', content: '{"ok":true,"id":"c1"}' },
          { toolCallId: 'c2', content: '{"ok":false}', isError: true },
        ],
      },
    ];
    await expect(attempt(changed)).rejects.toThrow(
      'model call 1 of turn 1: the result of read call c2 differs from the recording',
    );
    await expect(attempt([...turn1.slice(0, 2), results('c1')])).rejects.toThrow(
      'the model is given 1 of the 2 things the recording gave it',
    );
    await expect(attempt([...turn1, user('[Stop hook] more')])).rejects.toThrow(
      'the user message was not in the recording',
    );
    await expect(attempt([user('another prompt')])).rejects.toThrow(ReplayDiverged);

    const replay = new ReplayModelClient(REF);
    replay.startTurn(recorded);
    await drain(replay.stream(request(turn1)));
    await expect(drain(replay.stream(request(turn1)))).rejects.toThrow(
      'turn 1 asks for model call 2, and the recording has 1 answer for it',
    );
    // After a divergence nothing more is served, even an answer that would fit.
    replay.startTurn(recorded);
    await expect(drain(replay.stream(request(turn1)))).rejects.toThrow(ReplayDiverged);
  });

  it('timing in a bash result does not count as a difference', async () => {
    const bash = (ms: number, printed = 5): Message[] => [
      user('run it'),
      { role: 'assistant', text: '', toolCalls: [{ id: 'b1', name: 'bash', arguments: {} }] },
      {
        role: 'tool',
        results: [
          {
            toolCallId: 'b1',
            content: `{"ok":true,"exit_code":0,"stdout":"\\"duration_ms\\":${printed}","duration_ms":${ms}}`,
          },
        ],
      },
    ];
    const { turns } = await recordOne(bash(12), [{ type: 'stop', reason: 'end_turn' }]);
    const replay = new ReplayModelClient(REF);
    replay.startTurn(turns[0]!);
    await expect(drain(replay.stream(request(bash(340))))).resolves.toHaveLength(2);
    // The same words in the command's output are output, not timing: a change there counts.
    const other = new ReplayModelClient(REF);
    other.startTurn(turns[0]!);
    await expect(drain(other.stream(request(bash(12, 6))))).rejects.toThrow(
      'the result of bash call b1 differs',
    );
  });

  it('replays finished turns only: a turn a crash cut short, or one a resume abandoned, is left out', async () => {
    const dirs = makeDirs();
    const writer = await createSession({
      stateDir: dirs.stateDir,
      workspaceRoot: dirs.workspace,
      model: REF.id,
      oyVersion: '0',
    });
    const one: RecordedAnswer = {
      input: ['x'],
      text: 'a',
      toolCalls: [],
      usage: usage(1),
      stopReason: 'end_turn',
    };
    await writer.appendMessage(1, user('first'));
    await writer.recordAnswer(1, one);
    await writer.appendMessage(1, answer('a'));
    await writer.appendMessage(1, user('[Stop hook] again'));
    await writer.recordAnswer(1, one);
    await writer.endTurn(1, usage(1), null);
    // Turn 2 crashes; the session is resumed and turn 2 is run again.
    await writer.appendMessage(2, user('crashed'));
    await writer.recordAnswer(2, one);
    await (writer as SessionFileWriter).append({ type: 'resumed', at: new Date().toISOString() });
    await writer.appendMessage(2, user('second'));
    await writer.recordAnswer(2, one);
    await writer.endTurn(2, usage(1), null);
    await writer.appendMessage(3, user('never finished'));
    const turns = readRecordedTurns((await readSessionFile(writer.file))!);
    expect(turns.map(({ turn, prompt, answers }) => [turn, prompt, answers.length])).toEqual([
      [1, 'first', 2],
      [2, 'second', 1],
    ]);
  });
});
