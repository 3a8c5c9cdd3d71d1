import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Approver } from '../../../src/agent/authorize/create-authorizer.js';
import type { AgentEvent } from '../../../src/agent/events.js';
import { createMcpTools } from '../../../src/agent/mcp/create-mcp-tools.js';
import type { McpServerPool } from '../../../src/agent/mcp/mcp-server-pool.js';
import { summarizeAction } from '../../../src/agent/authorize/summarize-action.js';
import { bashTool } from '../../../src/agent/tools/bash-tool.js';
import type { ApprovalRequest } from '../../../src/agent/tools/tool-types.js';
import { createChatApprover } from '../../../src/cli/chat/chat-approver.js';
import type { LineEditor } from '../../../src/cli/chat/line-editor/create-line-editor.js';
import {
  APPROVAL_QUESTION,
  renderApproval,
  type ApprovalScreen,
} from '../../../src/cli/chat/render-approval.js';
import { createJsonRenderer, createTextRenderer } from '../../../src/cli/run/render-run-events.js';
import { createColors } from '../../../src/cli/terminal.js';
import { findRawControls } from '../../support/hostile-terminal-text.js';
import { makeToolContext } from '../../agent/tools/make-tool-context.js';

/**
 * What an approval shows of a command or MCP call of any length: every invisible run counted, the head
 * and tail of what does not fit with the rest counted, the whole length in the question, and all of it
 * on `v`. Snapshots are what a person reads (no colour, a fixed 100 x 40 screen).
 */
const plain = createColors(false);
const SCREEN: ApprovalScreen = { columns: 100, rows: 40 };
const WIDE: ApprovalScreen = { columns: 160, rows: 40 };
const META = 'cwd: /work/project\ntimeout: 120 s\nsandbox: off (agent.sandbox is off)';

function bashRequest(command: string): ApprovalRequest {
  return {
    tool: 'bash',
    toolCallId: 'call-1',
    action: { kind: 'bash', tool: 'bash', command },
    preview: `$ ${command}\n${META}`,
    always:
      'always: cannot be remembered (the command cannot be checked with certainty); it allows this call only',
  };
}

function mcpRequest(args: Record<string, unknown>): ApprovalRequest {
  return {
    tool: 'mcp__db__query',
    toolCallId: 'call-2',
    action: { kind: 'mcp', tool: 'mcp', mcp: { server: 'db', tool: 'query', isReadOnly: false } },
    preview: JSON.stringify(args, null, 2),
    always: 'always: allows the MCP tool db:query (any arguments) for this session',
  };
}

/** A query of exactly `length` characters: SELECT, comment lines, DROP TABLE alone on the last line. */
function longQuery(length: number): string {
  const head = 'SELECT id, name FROM users WHERE active;\n';
  const tail = 'DROP TABLE users;';
  const line = '-- keep the nightly report readable\n';
  const lines = Math.floor((length - head.length - tail.length) / line.length);
  const rest = length - head.length - tail.length - lines * line.length;
  // The characters left over lengthen the first comment, so every line but the first two reads the same.
  const first = rest > 0 ? `${'-'.repeat(rest - 1)}\n` : '';
  return head + first + line.repeat(lines) + tail;
}

const PADDED = `touch "$PWD/PWNED";${' '.repeat(8000)}npm test`;

describe('approval previews (what a person reads)', () => {
  it('8,000 spaces between two commands: one counted marker, both commands on one line', () => {
    const view = renderApproval(bashRequest(PADDED), plain, WIDE);
    expect(view.text).toMatchSnapshot();
    expect(view.text).toContain('$ touch "$PWD/PWNED";⟨8,000 spaces⟩npm test');
    expect(view.question).toBe(
      'Allow all 8,027 characters? [y]es / [n]o / [a]lways for this session / [v]iew them all (default no): ',
    );
    expect(view.full).toContain('$ touch "$PWD/PWNED";⟨8,000 spaces⟩npm test');
  });

  it('a 50,000-character command: head and tail, the middle counted, DROP TABLE at the end shown', () => {
    const command = `psql "$DATABASE_URL" <<'SQL'\n${longQuery(50_000 - 33)}\nSQL`;
    expect(command).toHaveLength(50_000);
    const view = renderApproval(bashRequest(command), plain, SCREEN);
    expect(view.text).toMatchSnapshot();
    expect(view.text).toMatch(/^ {2}DROP TABLE users;$/mu);
    const hidden =
      /⟨… ([\d,]+) characters on ([\d,]+) lines not shown; answer v to see them all …⟩/u.exec(
        view.text,
      );
    expect(hidden).not.toBeNull();
    // The shown lines, the line break each brings, and the counted ones are the whole command.
    const shown = view.text
      .split('\n')
      .filter((line) => /^(?:\$ | {2})/u.test(line) && !line.includes('⟨…'));
    const shownChars = shown.reduce((sum, line) => sum + line.length - 2 + 1, 0);
    expect(Number(hidden![1]!.replaceAll(',', '')) + shownChars).toBe(50_000);
    expect(view.question).toContain('Allow all 50,000 characters?');
    // `v` reaches every character.
    expect(stripPrefixes(view.full!)).toBe(command);
    expect(view.text.split('\n').length).toBeLessThan(40);
  });

  it('a 50,000-character MCP argument: the same, with DROP TABLE at the end shown', () => {
    const view = renderApproval(mcpRequest({ sql: longQuery(50_000) }), plain, SCREEN);
    expect(view.text).toMatchSnapshot();
    expect(view.text).toContain('DROP TABLE users;"');
    expect(view.text).toMatch(/⟨… [\d,]+ characters (?:on [\d,]+ lines )?not shown; answer v/u);
    expect(view.full).toContain(JSON.stringify({ sql: longQuery(50_000) }, null, 2));
  });

  it('a dangerous part in the middle of 50,000 characters is not shown but counted, and v shows it', () => {
    const danger = `rm -rf ~/${randomBytes(4).toString('hex')}`;
    const filler = 'echo ok; '.repeat(2_700);
    const command = `${filler}${danger}; ${filler}`;
    const view = renderApproval(bashRequest(command), plain, WIDE);
    expect(view.text).not.toContain(danger);
    expect(view.text).toMatch(/⟨… [\d,]+ characters not shown; answer v to see them all …⟩/u);
    expect(view.question).toContain(
      `Allow all ${command.length.toLocaleString('en-US')} characters?`,
    );
    expect(view.full).toContain(danger);
  });

  it('hostile invisible text: escapes, bidi, zero-width, a marker forged in the text', () => {
    const command = `ls \u202eexe.txt\u202c; r\u200bm -rf x #\u001b[2K\u001b[1G$ npm test ⟨8 spaces⟩`;
    const view = renderApproval(bashRequest(command), plain, SCREEN);
    expect(view.text).toMatchSnapshot();
    expect(findRawControls(view.text + view.question + view.full)).toEqual([]);
  });

  it('an MCP tool whose name carries escape sequences and a bidi override is named inertly', () => {
    const tool = 'notes\u001b[2J\u001b]0;pwned\u001b\\\u202e';
    const view = renderApproval(
      {
        tool: 'mcp__hostile__notes_0a1b2c3d',
        toolCallId: 'call-3',
        action: { kind: 'mcp', tool: 'mcp', mcp: { server: 'hostile', tool, isReadOnly: true } },
        preview: '{}',
        always: `always: allows the MCP tool hostile:${tool} (any arguments) for this session`,
      },
      plain,
      SCREEN,
    );
    expect(view.text).toContain(
      'wants to: call the MCP tool hostile:notes⟨^[[2J + ^[]0;pwned^[\\ + U+202E right-to-left override⟩',
    );
    expect(findRawControls(view.text + view.question + (view.full ?? ''))).toEqual([]);
  });

  it('a short, plain command keeps the plain question and offers no v', () => {
    const view = renderApproval(bashRequest('npm test'), plain, SCREEN);
    expect(view.question).toBe(APPROVAL_QUESTION);
    expect(view.full).toBeUndefined();
  });

  it('the one-line summary of a 50,000-character command shows its head and tail and counts the rest', () => {
    const summary = summarizeAction({ kind: 'bash', tool: 'bash', command: longQuery(50_000) });
    expect(summary).toMatch(
      /^run SELECT id, name FROM users WHERE active;.*⟨… [\d,]+ characters not shown …⟩.*DROP TABLE users;$/u,
    );
    expect([...summary].length).toBeLessThanOrEqual(104);
  });
});

describe('the real tools build these previews', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-preview-')));

  it('bash: a 32,000-character command (its longest) is previewed whole in the approval data', async () => {
    const command = `echo start;${' '.repeat(31_970)}true # end`;
    expect(command.length).toBeLessThanOrEqual(32_000);
    const context = makeToolContext(root, { mode: 'ask', isInteractive: true, answer: false });
    const result = await bashTool.run({ command }, context);
    expect(result.ok).toBe(false);
    const request = context.approvals[0]!;
    expect(request.preview?.startsWith(`$ ${command}\ncwd: `)).toBe(true);
    const view = renderApproval(request, plain, SCREEN);
    expect(view.text).toContain('$ echo start;⟨31,970 spaces⟩true # end');
    expect(view.text).toContain(`cwd: ${root}`);
  });

  it('bash: a 50,000-character command is refused before anyone is asked', async () => {
    const context = makeToolContext(root, { mode: 'ask', isInteractive: true, answer: true });
    const result = await bashTool.run({ command: 'x'.repeat(50_000) }, context);
    expect(result.ok).toBe(false);
    expect(result.content).toContain('invalid arguments');
    expect(context.approvals).toEqual([]);
  });

  it('MCP: the 50,000-character argument reaches the approval whole (no silent cut)', async () => {
    const [tool] = createMcpTools(
      {} as McpServerPool,
      [
        {
          server: 'db',
          tools: [
            {
              name: 'query',
              description: 'Runs SQL.',
              inputSchema: { type: 'object' },
              isReadOnly: false,
            },
          ],
        },
      ],
      (text) => text,
    );
    const sql = longQuery(50_000);
    const context = makeToolContext(root, { mode: 'ask', isInteractive: true, answer: false });
    await tool!.run({ sql }, context);
    const request = context.approvals[0]!;
    expect(request.preview).toBe(JSON.stringify({ sql }, null, 2));
    const view = renderApproval(request, plain, SCREEN);
    expect(view.text).toContain('DROP TABLE users;"');
    expect(view.full).toContain(JSON.stringify(sql));
  });
});

describe('v at the approval question', () => {
  /** An editor that answers from a list and keeps each question. */
  function scriptedEditor(answers: Array<string | null>) {
    const questions: string[] = [];
    const editor = {
      ask: async (question: string) => {
        questions.push(question);
        if (answers.length === 0) throw new Error(`an unexpected question: ${question}`);
        return answers.shift()!;
      },
    } as unknown as LineEditor;
    return { editor, questions };
  }

  function stderr(isTTY: boolean, screen: ApprovalScreen) {
    let text = '';
    const stream = {
      isTTY,
      ...screen,
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    return { stream, text: () => text };
  }

  function approver(editor: LineEditor, stream: NodeJS.WriteStream): Approver {
    return createChatApprover({
      editor,
      stderr: stream,
      colors: plain,
      pause: () => () => undefined,
    });
  }

  it('pages the whole command a screen at a time on a terminal, then asks again', async () => {
    const lines = Array.from({ length: 120 }, (_, index) => `echo line-${index} ${randomInt(1e6)}`);
    const command = lines.join('\n');
    const { editor, questions } = scriptedEditor(['v', '', '', 'q', 'y']);
    const out = stderr(true, { columns: 80, rows: 30 });
    const answer = await approver(editor, out.stream)(bashRequest(command), {
      decision: 'ask',
      reason: 'ask mode asks',
    });
    expect(answer).toBe('yes');
    expect(questions[0]).toContain('Allow all');
    expect(questions.slice(1, 4).every((question) => question.startsWith('-- rows 1-'))).toBe(true);
    expect(questions[4]).toBe(questions[0]);
    // Three pages of 29 rows were shown before q: the first 87 lines of the command, in order.
    const printed = out.text();
    for (const line of lines.slice(0, 87)) expect(printed).toContain(line);
    expect(printed.indexOf(lines[86]!)).toBeGreaterThan(printed.indexOf(lines[0]!));
  });

  it('prints all of it at once when stderr is not a terminal; v never means yes', async () => {
    const command = longQuery(20_000);
    const { editor, questions } = scriptedEditor(['v', 'view', 'n']);
    const out = stderr(false, SCREEN);
    const answer = await approver(editor, out.stream)(bashRequest(command), {
      decision: 'ask',
      reason: 'ask mode asks',
    });
    expect(answer).toBe('no');
    expect(questions).toHaveLength(3);
    // In the header's summary, the preview's tail, and each of the two whole views.
    expect(out.text().split('DROP TABLE users;')).toHaveLength(5);
    expect(out.text()).toContain(command.split('\n').slice(100, 110).join('\n  '));
  });

  it('v on a preview shown whole is an ordinary no', async () => {
    const { editor } = scriptedEditor(['v']);
    const out = stderr(false, SCREEN);
    const answer = await approver(editor, out.stream)(bashRequest('npm test'), {
      decision: 'ask',
      reason: 'ask mode asks',
    });
    expect(answer).toBe('no');
  });
});

describe('oy run shows a refused long command counted, and --json keeps it whole', () => {
  const command = `${'echo ok; '.repeat(3_000)}rm -rf ~/x`;
  const events: AgentEvent[] = [
    { type: 'tool_call', call: { id: 'c1', name: 'bash', arguments: { command } } },
    {
      type: 'approval',
      toolCallId: 'c1',
      tool: 'bash',
      summary: summarizeAction({ kind: 'bash', tool: 'bash', command }),
      decision: 'deny',
      outcome: 'denied',
      rule: 'mode:plan',
      reason: 'refused',
    },
    {
      type: 'tool_result',
      toolCallId: 'c1',
      tool: 'bash',
      ok: false,
      content: '{}',
      durationMs: 3,
    },
  ];

  it('the progress line', () => {
    let text = '';
    const sink = { isTTY: false, write: (chunk: string) => ((text += chunk), true) };
    const renderer = createTextRenderer({
      stdout: sink as unknown as NodeJS.WriteStream,
      stderr: sink as unknown as NodeJS.WriteStream,
      colors: plain,
      isQuiet: false,
    });
    events.forEach((event) => renderer.render(event));
    expect(text).toMatch(
      /^• bash echo ok; .*⟨… [\d,]+ characters not shown …⟩.*rm -rf ~\/x denied by mode:plan 3 ms\n$/u,
    );
  });

  it('the JSON events', () => {
    let text = '';
    const renderer = createJsonRenderer({
      write: (chunk: string) => ((text += chunk), true),
    } as never);
    events.forEach((event) => renderer.render(event));
    const call = JSON.parse(text.split('\n')[0]!) as { call: { arguments: { command: string } } };
    expect(call.call.arguments.command).toBe(command);
  });
});

/** The `v` view without its `$ ` and `  ` line starts, and without "always". */
function stripPrefixes(full: string): string {
  const lines = full.replace(/\n$/u, '').split('\n');
  return lines
    .slice(0, -1)
    .map((line) => line.slice(2))
    .join('\n');
}
