import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/agent/tools/tool-types.js';
import { renderDiff } from '../../../src/agent/tools/render-diff.js';
import { formatChatHelp } from '../../../src/cli/chat/chat-help.js';
import { formatStatusLine } from '../../../src/cli/chat/format-status-line.js';
import { highlightCodeLine } from '../../../src/cli/chat/highlight-code.js';
import { parseApprovalAnswer, renderApproval } from '../../../src/cli/chat/render-approval.js';
import { createMarkdownStream } from '../../../src/cli/chat/render-markdown-stream.js';
import { createColors } from '../../../src/cli/terminal.js';

const plain = createColors(false);
const colour = createColors(true);

/** ANSI escapes made visible and stable in a snapshot: `‹32m›` for ESC[32m. */
function showAnsi(text: string): string {
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[([\\d;]*)m`, 'gu'), '‹$1m›');
}

const REQUESTS: Record<string, ApprovalRequest> = {
  write: {
    tool: 'write',
    toolCallId: 'call-1',
    action: { kind: 'write', tool: 'write', path: 'src/notes.md' },
    preview: renderDiff(
      'src/notes.md',
      '# Notes\nold line\nkept\n',
      '# Notes\nnew line\nkept\nadded\n',
    ),
  },
  bash: {
    tool: 'bash',
    toolCallId: 'call-2',
    action: { kind: 'bash', tool: 'bash', command: 'npm test -- --run' },
    preview: [
      '$ npm test -- --run',
      'cwd: /work/project',
      'timeout: 120 s',
      'sandbox: off (agent.sandbox is off)',
    ].join('\n'),
  },
  webfetch: {
    tool: 'webfetch',
    toolCallId: 'call-3',
    action: {
      kind: 'webfetch',
      tool: 'webfetch',
      url: 'https://docs.python.org/3/library/json.html?highlight=dumps',
    },
    preview: 'GET https://docs.python.org/3/library/json.html?highlight=dumps',
  },
};

const ANSWER = [
  '# Plan',
  '',
  'I will change **two** files and run `npm test`:',
  '',
  '- update *the parser* in [parse.ts](src/parse.ts)',
  '- [x] done already',
  '  * nested item',
  '1. first step',
  '> a quoted note',
  '---',
  '```ts',
  'const answer: number = 42; // the answer',
  "export function greet(name: string) { return 'hi ' + name; }",
  '```',
  '```diff',
  '--- a/x.ts',
  '+++ b/x.ts',
  '@@ -1 +1 @@',
  '-old',
  '+new',
  '```',
  '```sh',
  'echo "done" # a comment',
  '```',
  'The end.',
].join('\n');

/** Streams the answer in awkward pieces, as a provider would. */
function renderStreamed(text: string, isRendered: boolean, pieces = 7): string {
  let out = '';
  const stream = createMarkdownStream(
    { write: (chunk: string) => (out += chunk) },
    colour,
    isRendered,
  );
  for (let start = 0; start < text.length; start += pieces)
    stream.write(text.slice(start, start + pieces));
  stream.end();
  return out;
}

describe('chat rendering', () => {
  it('help text', () => {
    expect(formatChatHelp()).toMatchSnapshot();
  });

  it.each(Object.keys(REQUESTS))('approval preview for %s, without colour', (name) => {
    expect(renderApproval(REQUESTS[name]!, plain).text).toMatchSnapshot();
  });

  it.each(Object.keys(REQUESTS))('approval preview for %s, with colour', (name) => {
    const rendered = renderApproval(REQUESTS[name]!, colour).text;
    expect(rendered).toContain('\u001b[');
    expect(showAnsi(rendered)).toMatchSnapshot();
  });

  it('the write preview colours additions green and removals red', () => {
    const rendered = renderApproval(REQUESTS.write!, colour).text;
    expect(rendered).toContain(colour.green('+new line'));
    expect(rendered).toContain(colour.red('-old line'));
    expect(rendered).toContain(colour.cyan('@@ -1,3 +1,4 @@'));
  });

  it.each([
    ['y', 'yes'],
    ['YES', 'yes'],
    [' a ', 'always'],
    ['always', 'always'],
    ['n', 'no'],
    ['', 'no'],
    ['sure', 'no'],
    [null, 'no'],
  ] as const)('approval answer %j is %s', (input, expected) => {
    expect(parseApprovalAnswer(input)).toBe(expected);
  });

  it('status line', () => {
    expect(
      formatStatusLine({
        modelId: 'anthropic::claude-haiku-4-5',
        mode: 'ask',
        contextTokens: 5120,
        costUsd: 0.00421,
      }),
    ).toMatchSnapshot();
    expect(
      formatStatusLine({
        modelId: 'ollama::llama3.1:8b',
        mode: 'plan',
        contextTokens: 12,
        costUsd: null,
      }),
    ).toBe('ollama::llama3.1:8b · mode plan · context 12 tokens · $?');
  });

  it('Markdown for a terminal, streamed in pieces', () => {
    expect(showAnsi(renderStreamed(ANSWER, true))).toMatchSnapshot();
  });

  it('the same rendering whatever the pieces', () => {
    expect(renderStreamed(ANSWER, true, 1)).toBe(renderStreamed(ANSWER, true, 1000));
  });

  it('plain passthrough when not rendering', () => {
    expect(renderStreamed(ANSWER, false)).toBe(ANSWER);
  });

  it('an unfinished last line is written at the end', () => {
    expect(renderStreamed('no newline **here**', true)).toBe(`no newline ${colour.bold('here')}`);
  });

  it('code highlighting leaves comment markers inside strings alone', () => {
    const line = highlightCodeLine('const url = "http://x"; // note', 'ts', colour);
    expect(line).toContain(colour.green('"http://x"'));
    expect(line).toContain(colour.dim('// note'));
    expect(highlightCodeLine('echo $# done', 'sh', plain)).toBe('echo $# done');
  });
});
