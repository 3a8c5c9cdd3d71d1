import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/providers/types.js';
import { repairTranscript } from '../../../src/agent/session/repair-transcript.js';
import { answer, calls, expectValidTranscript, results, user } from './session-fixtures.js';

const interrupted = (id: string) => ({
  toolCallId: id,
  content: '{"ok":false,"error":"interrupted: no result was recorded for this call"}',
  isError: true,
});

const cases: [string, Message[], Message[]][] = [
  [
    'a whole transcript stays as it is',
    [user('a'), calls('1'), results('1'), answer('b')],
    [user('a'), calls('1'), results('1'), answer('b')],
  ],
  [
    'trailing calls with no results are dropped with their prompt',
    [user('a'), answer('b'), user('c'), calls('1')],
    [user('a'), answer('b')],
  ],
  [
    'trailing calls answered only in part are dropped',
    [user('a'), answer('b'), user('c'), calls('1', '2'), results('2')],
    [user('a'), answer('b')],
  ],
  [
    'a trailing unanswered prompt is dropped',
    [user('a'), answer('b'), user('c')],
    [user('a'), answer('b')],
  ],
  [
    'a trailing complete tool round is kept',
    [user('a'), calls('1'), results('1')],
    [user('a'), calls('1'), results('1')],
  ],
  [
    'unanswered calls mid-history get an interrupted result',
    [user('a'), calls('1', '2'), results('2'), answer('b')],
    [
      user('a'),
      calls('1', '2'),
      {
        role: 'tool',
        results: [interrupted('1'), { toolCallId: '2', content: '{"ok":true,"id":"2"}' }],
      },
      answer('b'),
    ],
  ],
  [
    'results come back in call order, strays and duplicates dropped',
    [
      user('a'),
      calls('1', '2'),
      {
        role: 'tool',
        results: [
          { toolCallId: '2', content: 'two' },
          { toolCallId: 'x', content: 'stray' },
          { toolCallId: '1', content: 'one' },
          { toolCallId: '1', content: 'again' },
        ],
      },
      answer('b'),
    ],
    [
      user('a'),
      calls('1', '2'),
      {
        role: 'tool',
        results: [
          { toolCallId: '1', content: 'one' },
          { toolCallId: '2', content: 'two' },
        ],
      },
      answer('b'),
    ],
  ],
  [
    'a tool message with no calls before it is dropped',
    [user('a'), results('1'), answer('b')],
    [user('a'), answer('b')],
  ],
  [
    'consecutive prompts are joined',
    [user('a'), user('b'), answer('c')],
    [user('a\n\nb'), answer('c')],
  ],
  ['an empty history stays empty', [], []],
];

describe('repairTranscript', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    const repaired = repairTranscript(input);
    expect(repaired).toEqual(expected);
    expectValidTranscript(repaired);
  });

  it('keeps the documents of joined prompts', () => {
    const doc = { name: 'a.txt', format: 'txt' as const, data: 'x' };
    expect(
      repairTranscript([{ role: 'user', text: 'a', documents: [doc] }, user('b'), answer('c')])[0],
    ).toEqual({
      role: 'user',
      text: 'a\n\nb',
      documents: [doc],
    });
  });
});
