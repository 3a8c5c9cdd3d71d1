import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../src/agent/events.js';
import type { ChatOutput } from '../../../../src/cli/chat/chat-session.js';
import { createTurnView } from '../../../../src/cli/chat/render/turn-view.js';
import { createColors } from '../../../../src/cli/terminal.js';

const plain = createColors(false);
const USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A stream that keeps what is written; a terminal or not. */
function sink(isTTY: boolean) {
  const stream = {
    text: '',
    isTTY,
    columns: 80,
    rows: 24,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream;
}

function setUp(options: { isTTY?: boolean; showsThinking?: () => boolean } = {}) {
  const stdout = sink(options.isTTY ?? false);
  const stderr = sink(options.isTTY ?? false);
  let clock = 1_000;
  const controller = new AbortController();
  const kept: string[] = [];
  const output = {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
    colors: plain,
    answerColors: plain,
    isMarkdown: false,
  } satisfies ChatOutput;
  const view = createTurnView({
    output,
    signal: controller.signal,
    keepCommandOutput: (_command, text) => kept.push(text),
    now: () => clock,
    ...(options.showsThinking ? { showsThinking: options.showsThinking } : {}),
  });
  return {
    view,
    stdout,
    stderr,
    controller,
    kept,
    advance: (ms: number) => (clock += ms),
  };
}

const call = (id: string, name: string, args: unknown): AgentEvent => ({
  type: 'tool_call',
  call: { id, name, arguments: args },
});
const result = (
  id: string,
  tool: string,
  ok: boolean,
  content: string,
  ms: number,
): AgentEvent => ({
  type: 'tool_result',
  toolCallId: id,
  tool,
  ok,
  content,
  durationMs: ms,
});
const approval = (
  id: string,
  decision: 'allow' | 'ask' | 'deny',
  outcome: 'allowed' | 'denied',
  rule?: string,
): AgentEvent => ({
  type: 'approval',
  toolCallId: id,
  tool: 'bash',
  summary: 'run make',
  decision,
  outcome,
  ...(rule ? { rule } : {}),
  reason: 'because',
});
const bashOutput = (stdout: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    ok: true,
    exit_code: 0,
    signal: null,
    timed_out: false,
    stdout,
    stderr: '',
    ...extra,
  });

describe('chat turn view', () => {
  it('leaves the time at the approval prompt out of the duration', () => {
    const { view, stderr, advance } = setUp();
    view.render(call('c1', 'bash', { command: 'make' }));
    advance(10);
    const resume = view.pauseForPrompt();
    advance(60_000);
    resume();
    advance(30);
    view.render(approval('c1', 'ask', 'allowed', 'user-approved'));
    view.render(result('c1', 'bash', true, bashOutput('built'), 60_040));
    expect(stderr.text).toContain('• bash make ok 40 ms\n');
  });

  it.each([
    [approval('c1', 'ask', 'denied', 'mode:ask'), 'denied by you'],
    [approval('c1', 'deny', 'denied', 'Bash(rm:*)'), 'denied by rule Bash(rm:*)'],
    [approval('c1', 'deny', 'denied', 'mode:plan'), 'denied by plan mode'],
  ])('says who refused: %j', (event, status) => {
    const { view, stderr } = setUp();
    view.render(call('c1', 'bash', { command: 'rm -rf build' }));
    view.render(event);
    view.render(result('c1', 'bash', false, '{"ok":false,"error":"no"}', 5));
    expect(stderr.text).toContain(`• bash rm -rf build ${status} 5 ms\n`);
  });

  it('a call that ends after Ctrl-C is interrupted, whatever its result says', () => {
    const { view, stderr, controller } = setUp();
    view.render(call('c1', 'bash', { command: 'sleep 30' }));
    controller.abort();
    view.render(
      result('c1', 'bash', true, bashOutput('', { exit_code: null, signal: 'SIGTERM' }), 900),
    );
    expect(stderr.text).toContain('• bash sleep 30 interrupted 900 ms\n');
  });

  it('a failing command reports its exit code', () => {
    const { view, stderr } = setUp();
    view.render(call('c1', 'bash', { command: 'false' }));
    view.render(result('c1', 'bash', true, bashOutput('', { exit_code: 1 }), 3));
    expect(stderr.text).toContain('• bash false exit 1 3 ms\n');
  });

  it('folds long output to its first and last lines and keeps it whole for /output', () => {
    const { view, stderr, kept } = setUp();
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    view.render(call('c1', 'bash', { command: 'seq' }));
    view.render(result('c1', 'bash', true, bashOutput(`${lines.join('\n')}\n`), 3));
    expect(stderr.text).toContain('│ line 4\n');
    expect(stderr.text).toContain('│ … 22 more lines (/output shows them all)\n');
    expect(stderr.text).toContain('│ line 27\n');
    expect(stderr.text).not.toContain('line 5\n');
    expect(kept).toEqual([lines.join('\n')]);
  });

  it('shows escape sequences in command output inertly', () => {
    const { view, stderr } = setUp();
    view.render(call('c1', 'bash', { command: 'cat x' }));
    view.render(result('c1', 'bash', true, bashOutput('a\u001b]52;c;Zm9v\u0007b\rc'), 3));
    expect(stderr.text).toContain('│ a^[]52;c;Zm9v^Gb^Mc\n');
    expect(stderr.text).not.toContain('\u001b');
  });

  it('on a terminal: a spinner at once, the tokens after a model call, gone before any text', () => {
    const { view, stderr, stdout } = setUp({ isTTY: true });
    expect(stderr.text).toMatch(/waiting for the model · 0\.0s/u);
    view.render({
      type: 'usage',
      usage: { ...USAGE, inputTokens: 1500, outputTokens: 20 },
      costUsd: null,
      totalUsage: USAGE,
      totalCostUsd: null,
    });
    view.render(call('c1', 'read', { path: 'a.ts' }));
    expect(stderr.text).toMatch(/running read a\.ts · 0\.0s · 1,500 tokens in · 20 out/u);
    view.render(result('c1', 'read', true, '{"ok":true}', 2));
    view.render({ type: 'text_delta', text: 'Done.' });
    view.end();
    expect(stderr.text.endsWith('\r\u001b[2K')).toBe(true);
    expect(stdout.text).toContain('Done.');
  });

  it('labels thinking, indents it, and ends it before the answer', () => {
    const { view, stderr, stdout } = setUp();
    view.render({ type: 'thinking_delta', text: 'First I read ' });
    view.render({ type: 'thinking_delta', text: 'the file.\nThen I answer.' });
    view.render({ type: 'text_delta', text: 'The answer.' });
    view.render(DONE);
    expect(stderr.text).toBe('✻ thinking\n  First I read the file.\n  Then I answer.\n');
    expect(stdout.text).toBe('The answer.\n');
  });

  it('hidden thinking shows only its label; shown again mid-block, the rest appears', () => {
    let isShown = false;
    const { view, stderr } = setUp({ showsThinking: () => isShown });
    view.render({ type: 'thinking_delta', text: 'secret plan ' });
    isShown = true;
    view.render({ type: 'thinking_delta', text: 'visible part' });
    view.render({ type: 'text_delta', text: 'Done.' });
    expect(stderr.text).toBe('✻ thinking (hidden; Ctrl-T shows it)\n  visible part\n');
    expect(stderr.text).not.toContain('secret plan');
  });

  it.each([['\n\n'], ['   '], [' \n \t\n']])(
    'a whitespace-only answer %j shows nothing',
    (text) => {
      const { view, stdout, stderr } = setUp({ isTTY: false });
      view.render({ type: 'text_delta', text });
      view.render(DONE);
      view.end();
      expect(stdout.text).toBe('');
      expect(stderr.text).toBe('');
    },
  );

  it('leading blank lines are dropped, indentation of the first line kept, later whitespace kept', () => {
    const { view, stdout } = setUp();
    view.render({ type: 'text_delta', text: '\n\n' });
    view.render({ type: 'text_delta', text: '  code\n\nmore' });
    view.render(DONE);
    expect(stdout.text).toBe('  code\n\nmore\n');
  });

  it('in a recap: no spinner and no durations', () => {
    const stdout = sink(true);
    const stderr = sink(true);
    const view = createTurnView({
      output: {
        stdout: stdout as unknown as NodeJS.WriteStream,
        stderr: stderr as unknown as NodeJS.WritableStream,
        colors: plain,
        answerColors: plain,
        isMarkdown: false,
      },
      signal: new AbortController().signal,
      keepCommandOutput: () => undefined,
      isRecap: true,
    });
    view.render(call('c1', 'bash', { command: 'make' }));
    view.render(result('c1', 'bash', true, bashOutput('built'), 1234));
    view.end();
    expect(stderr.text).toBe('• bash make ok\n  │ built\n');
  });
});

const DONE: AgentEvent = {
  type: 'done',
  stopReason: 'completed',
  answer: '',
  modelCalls: 1,
  usage: USAGE,
  costUsd: null,
};
