import { describe, expect, it } from 'vitest';
import { SUMMARY_HEADING } from '../../../src/agent/compact/assemble-compacted.js';
import {
  COMPACT_AT_FRACTION,
  compactIfNeeded,
  type CompactionInput,
} from '../../../src/agent/compact/compact-if-needed.js';
import {
  RECENT_EXCHANGES_KEPT,
  SHORTENED_HEAD_CHARS,
  SHORTENED_TAIL_CHARS,
} from '../../../src/agent/compact/compaction-limits.js';
import { estimateRequestTokens } from '../../../src/agent/compact/estimate-tokens.js';
import { EMPTY_USAGE, type Message } from '../../../src/providers/types.js';
import { expectValidTranscript, scriptedClient } from './transcript-fixtures.js';

const SYSTEM = 'You are oy.';

/** A task with `exchanges` tool round trips, each returning an output of `outputChars`. */
function longTask(exchanges: number, outputChars: number): Message[] {
  const messages: Message[] = [{ role: 'user', text: 'Make the tests pass.' }];
  for (let n = 1; n <= exchanges; n += 1) {
    messages.push({
      role: 'assistant',
      text: '',
      toolCalls: [{ id: `c${n}`, name: 'bash', arguments: { command: `npm test -- ${n}` } }],
    });
    const output = `start-${n} ${'.'.repeat(outputChars)} end-${n}`;
    messages.push({
      role: 'tool',
      results: [{ toolCallId: `c${n}`, content: JSON.stringify({ exit_code: 1, stdout: output }) }],
    });
  }
  return messages;
}

function inputFor(
  messages: Message[],
  contextWindow: number,
  extra: Partial<CompactionInput> = {},
): CompactionInput & { client: ReturnType<typeof scriptedClient> } {
  return {
    client: scriptedClient('## Goal\n- make the tests pass'),
    system: SYSTEM,
    messages,
    tools: [],
    contextWindow,
    redact: (text) => text,
    ...extra,
  } as CompactionInput & { client: ReturnType<typeof scriptedClient> };
}

const tokensOf = (messages: Message[]): number =>
  estimateRequestTokens({ system: SYSTEM, messages, tools: [] });

describe('compactIfNeeded: the threshold', () => {
  it('does nothing under COMPACT_AT_FRACTION of the window', async () => {
    const messages = longTask(10, 1_000);
    const window = Math.ceil(tokensOf(messages) / COMPACT_AT_FRACTION) + 10;
    const input = inputFor(messages, window);
    expect(await compactIfNeeded(input)).toBeUndefined();
    expect(input.client.requests).toHaveLength(0);
  });

  it('acts at the threshold', async () => {
    const messages = longTask(10, 10_000);
    const window = Math.floor(tokensOf(messages) / COMPACT_AT_FRACTION);
    expect(await compactIfNeeded(inputFor(messages, window))).toBeDefined();
  });

  it("acts below the fraction when the next call's output room (thinking included) would not fit", async () => {
    const messages = longTask(10, 1_000);
    const window = Math.ceil(tokensOf(messages) / COMPACT_AT_FRACTION) + 10;
    // Control: under the fraction and no output planned, nothing to do.
    expect(await compactIfNeeded(inputFor(messages, window))).toBeUndefined();
    // An output of a quarter of the window leaves less than the prompt needs: compact first.
    const outputTokens = Math.ceil(window * 0.25);
    expect(await compactIfNeeded(inputFor(messages, window, { outputTokens }))).toBeDefined();
  });

  it('returns undefined when forced on a transcript with nothing older to shorten or summarize', async () => {
    const input = inputFor(longTask(2, 100), 100_000, { force: true });
    expect(await compactIfNeeded(input)).toBeUndefined();
    expect(input.client.requests).toHaveLength(0);
  });
});

describe('compactIfNeeded: shortening old tool outputs', () => {
  const messages = longTask(12, 20_000);
  // Just over the threshold; shortening 8 of 12 outputs removes about two thirds.
  const window = Math.floor(tokensOf(messages) / 0.85);

  it('shortens outputs older than the recent exchanges to head and tail, without a model call', async () => {
    const input = inputFor(messages, window);
    const result = await compactIfNeeded(input);
    expect(result?.method).toBe('shortened');
    expect(result?.usage).toEqual(EMPTY_USAGE);
    expect(input.client.requests).toHaveLength(0);
    expect(result!.tokensAfter).toBeLessThan(COMPACT_AT_FRACTION * window);
    expect(result!.tokensBefore).toBe(tokensOf(messages));
    expectValidTranscript(result!.messages);
    const outputs = result!.messages.flatMap((m) =>
      m.role === 'tool' ? [m.results[0]!.content] : [],
    );
    const old = outputs.slice(0, 12 - RECENT_EXCHANGES_KEPT);
    const recent = outputs.slice(12 - RECENT_EXCHANGES_KEPT);
    for (const [index, content] of old.entries()) {
      expect(content).toContain(`start-${index + 1}`);
      expect(content).toContain(`end-${index + 1}`);
      expect(content).toMatch(/characters of this old output removed to save context/);
      expect(content.length).toBeLessThan(SHORTENED_HEAD_CHARS + SHORTENED_TAIL_CHARS + 100);
    }
    recent.forEach((content, index) => {
      const original = messages[2 * (12 - RECENT_EXCHANGES_KEPT + index) + 2];
      expect(original?.role === 'tool' && original.results[0]!.content).toBe(content);
    });
  });

  it('shortens long string arguments of old calls and keeps them objects', async () => {
    const withWrite = longTask(8, 10);
    withWrite.splice(
      1,
      0,
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'w', name: 'write', arguments: { path: 'a.txt', content: 'y'.repeat(50_000) } },
        ],
      },
      { role: 'tool', results: [{ toolCallId: 'w', content: '{"ok":true}' }] },
    );
    const result = await compactIfNeeded(
      inputFor(withWrite, Math.floor(tokensOf(withWrite) / 0.85)),
    );
    expect(result?.method).toBe('shortened');
    const call = result!.messages[1];
    expect(call?.role === 'assistant' && call.toolCalls[0]!.arguments).toMatchObject({
      path: 'a.txt',
    });
    expect(JSON.stringify(result!.messages[1]).length).toBeLessThan(3_000);
  });

  it('is stable: shortening a shortened transcript changes nothing', async () => {
    const first = await compactIfNeeded(inputFor(messages, window, { force: false }));
    const again = await compactIfNeeded(inputFor(first!.messages, Math.floor(window / 3)));
    // Nothing is left to shorten, so the second pass had to summarize.
    expect(again?.method).toBe('model');
  });

  it('goes on to a summary when forced, even though shortening would do', async () => {
    const input = inputFor(messages, window, { force: true });
    const result = await compactIfNeeded(input);
    expect(result?.method).toBe('model');
    expect(input.client.requests).toHaveLength(1);
    expect(result!.usage.inputTokens).toBe(100);
  });
});

describe('compactIfNeeded: summarizing older turns', () => {
  const messages = longTask(12, 5_000);
  const window = Math.floor(tokensOf(messages) / 0.9);

  it('keeps the first user message and the recent exchanges verbatim around the summary', async () => {
    const input = inputFor(messages, window, { force: true });
    const result = await compactIfNeeded(input);
    expect(result?.method).toBe('model');
    const opening = result!.messages[0]!;
    expect(opening.role).toBe('user');
    expect(opening.role === 'user' && opening.text).toBe(
      `Make the tests pass.\n\n${SUMMARY_HEADING}\n## Goal\n- make the tests pass`,
    );
    expect(result!.messages.slice(1)).toEqual(messages.slice(-2 * RECENT_EXCHANGES_KEPT));
    expect(result!.tokensAfter).toBeLessThan(result!.tokensBefore);
    expectValidTranscript(result!.messages);
    // No tools are offered to the summary call.
    expect(input.client.requests[0]!.tools).toBeUndefined();
  });

  it('falls back to a deterministic summary when the model call fails', async () => {
    const input = inputFor(messages, window, {
      force: true,
      client: scriptedClient(new Error('socket hang up')),
    });
    const result = await compactIfNeeded(input);
    expect(result?.method).toBe('deterministic');
    expect(result?.usage).toEqual(EMPTY_USAGE);
    const opening = result!.messages[0]!;
    const text = opening.role === 'user' ? opening.text : '';
    expect(text).toContain('bash command="npm test -- 1": exit 1');
    expect(text).toContain('Make the tests pass.');
    expectValidTranscript(result!.messages);
  });

  it('falls back when the model answers with nothing', async () => {
    const input = inputFor(messages, window, { force: true, client: scriptedClient('  ') });
    expect((await compactIfNeeded(input))?.method).toBe('deterministic');
  });

  it('rethrows an abort instead of falling back', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user pressed Ctrl-C'));
    const input = inputFor(messages, window, {
      force: true,
      signal: controller.signal,
      client: scriptedClient(new Error('aborted')),
    });
    await expect(compactIfNeeded(input)).rejects.toThrow('aborted');
  });

  it('redacts what it sends and the summary it keeps', async () => {
    const input = inputFor(messages, window, {
      force: true,
      redact: (text) => text.replaceAll('npm test', '[REDACTED]').replaceAll('tests pass', '[R]'),
    });
    const result = await compactIfNeeded(input);
    expect(JSON.stringify(input.client.requests)).not.toContain('npm test');
    const opening = result!.messages[0]!;
    expect(opening.role === 'user' && opening.text).toContain('## Goal\n- make the [R]');
  });

  it('replaces an earlier summary on a second compaction instead of stacking them', async () => {
    const first = await compactIfNeeded(inputFor(messages, window, { force: true }));
    const longer = [...first!.messages, ...longTask(6, 5_000).slice(1)];
    const second = inputFor(longer, window, { force: true });
    const result = await compactIfNeeded(second);
    const opening = result!.messages[0]!;
    const text = opening.role === 'user' ? opening.text : '';
    expect(text.split(SUMMARY_HEADING)).toHaveLength(2);
    expect(text.startsWith('Make the tests pass.\n\n')).toBe(true);
    expect(
      second.client.requests[0]!.messages[0]!.role === 'user' &&
        second.client.requests[0]!.messages[0]!.text,
    ).toContain('An earlier summary');
  });

  it('merges a kept user message after the summary so two user messages never follow each other', async () => {
    const chat: Message[] = [
      ...longTask(6, 5_000),
      { role: 'assistant', text: 'Done.', toolCalls: [] },
    ];
    for (let n = 0; n < 4; n += 1) {
      chat.push(
        { role: 'user', text: `Question ${n}` },
        { role: 'assistant', text: `Answer ${n}`, toolCalls: [] },
      );
    }
    chat.push({ role: 'user', text: 'Last question' });
    const result = await compactIfNeeded(inputFor(chat, 100_000, { force: true }));
    expectValidTranscript(result!.messages);
    const opening = result!.messages[0]!;
    expect(opening.role === 'user' && opening.text).toMatch(
      /\[The conversation continues\]\nQuestion 1$/,
    );
    expect(result!.messages.at(-1)).toEqual({ role: 'user', text: 'Last question' });
  });
});
