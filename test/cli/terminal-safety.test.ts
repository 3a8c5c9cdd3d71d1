import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { renderDiff } from '../../src/agent/tools/render-diff.js';
import type { ApprovalRequest } from '../../src/agent/tools/tool-types.js';
import type { AuditPlan } from '../../src/audit/plan/audit-plan.js';
import { renderPlan } from '../../src/audit/plan/render-plan.js';
import { createAskUser, createChatApprover } from '../../src/cli/chat/chat-approver.js';
import type { ChatSession } from '../../src/cli/chat/chat-session.js';
import { colorizeDiff } from '../../src/cli/chat/colorize-diff.js';
import { formatSessionDiff } from '../../src/cli/chat/diff/format-session-diff.js';
import { createTurnView } from '../../src/cli/chat/render/turn-view.js';
import { formatStatusLine } from '../../src/cli/chat/format-status-line.js';
import type { LineEditor } from '../../src/cli/chat/line-editor/create-line-editor.js';
import { renderApproval, type ApprovalView } from '../../src/cli/chat/render-approval.js';
import { layoutInput } from '../../src/cli/chat/line-editor/render-input.js';
import { createMarkdownStream } from '../../src/cli/chat/render-markdown-stream.js';
import { runSlashCommand } from '../../src/cli/chat/run-slash-command.js';
import { parseSlashCommand } from '../../src/cli/chat/slash-commands.js';
import { renderDoctorReport } from '../../src/cli/doctor/render-doctor-report.js';
import { parseCommandLine } from '../../src/cli/flags/parse-command-line.js';
import { handleError } from '../../src/cli/handle-error.js';
import { renderModelListing } from '../../src/cli/model/render-model-listing.js';
import { createProgressRenderer } from '../../src/cli/render-progress.js';
import { describeToolCall } from '../../src/cli/agent-view/describe-tool-call.js';
import { createJsonRenderer, createTextRenderer } from '../../src/cli/run/render-run-events.js';
import { renderSessionList } from '../../src/cli/sessions/render-session-list.js';
import { createColors, type Colors } from '../../src/cli/terminal.js';
import { UsageError } from '../../src/shared/errors.js';
import { findRawControls, makeHostileText } from '../support/hostile-terminal-text.js';

/** All an approval can print: the preview, the question and (after `v`) the whole call. */
function printed(view: ApprovalView): string {
  return view.text + view.question + (view.full ?? '');
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/**
 * Every renderer that prints untrusted text, walked with a hostile string carrying each class of
 * control character (CSI erase, OSC 52, BEL, CR, DEL, 8-bit CSI, bidi override, conceal): nothing a
 * terminal would act on comes out, the text itself does (its canary is printed), and with colours
 * on, oy's own colour codes are still there.
 */

/** A writable that keeps what is written; `isTTY` as asked. */
function sink(isTTY = false) {
  const chunks: string[] = [];
  const stream = {
    isTTY,
    columns: 100,
    write(text: string) {
      chunks.push(text);
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

interface Case {
  name: string;
  render(hostile: string, c: Colors): string | Promise<string>;
}

const USAGE = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** The events of one run, each field the model or a tool controls made hostile. */
function hostileEvents(hostile: string): AgentEvent[] {
  return [
    { type: 'text_delta', text: `Answer: ${hostile}\r` },
    { type: 'text_delta', text: `\nmore ${hostile}\n` },
    {
      type: 'tool_call',
      call: { id: 'c1', name: 'bash', arguments: { command: `touch x ${hostile}` } },
    },
    { type: 'tool_result', toolCallId: 'c1', tool: 'bash', ok: true, content: '', durationMs: 1 },
    { type: 'tool_call', call: { id: 'c2', name: `made-up${hostile}`, arguments: {} } },
    {
      type: 'approval',
      toolCallId: 'c2',
      tool: 'x',
      summary: `run ${hostile}`,
      decision: 'deny',
      outcome: 'denied',
      rule: `Bash(${hostile})`,
      reason: hostile,
    },
    {
      type: 'tool_result',
      toolCallId: 'c2',
      tool: `made-up${hostile}`,
      ok: false,
      content: '',
      durationMs: 1,
    },
    {
      type: 'tool_result',
      toolCallId: 'never-called',
      tool: `other${hostile}`,
      ok: false,
      content: '',
      durationMs: 1,
    },
    { type: 'error', kind: 'warning', message: `retrying: ${hostile}` },
    { type: 'error', message: `provider said: ${hostile}` },
    {
      type: 'done',
      stopReason: 'max_turns',
      answer: hostile,
      modelCalls: 1,
      usage: USAGE,
      costUsd: null,
      notice: `stopped: ${hostile}`,
    },
  ];
}

function approval(tool: ApprovalRequest['tool'], hostile: string): ApprovalRequest {
  switch (tool) {
    case 'bash':
      return {
        tool,
        toolCallId: 'c',
        action: { kind: 'bash', tool, command: `touch PWNED ${hostile}` },
        preview: `$ touch PWNED ${hostile}\ncwd: /w\ntimeout: 60 s\nsandbox: off`,
      };
    case 'webfetch':
      return {
        tool,
        toolCallId: 'c',
        action: { kind: 'webfetch', tool, url: `https://example.com/${hostile}` },
        preview: `GET https://example.com/${hostile}`,
      };
    default:
      return {
        tool,
        toolCallId: 'c',
        action: fileAction(tool, `notes${hostile}.md`),
        preview: renderDiff(`notes${hostile}.md`, 'kept\nold\n', `kept\nnew ${hostile}\n`),
      };
  }
}

/** The action a file tool shows for one path. */
function fileAction(tool: ApprovalRequest['tool'], file: string): ApprovalRequest['action'] {
  switch (tool) {
    case 'write':
    case 'edit':
      return { kind: 'write', tool, path: file };
    case 'replace':
      return { kind: 'write', tool, path: file, files: [file] };
    case 'todo':
      return { kind: 'write', tool, path: 'TODO.md' };
    case 'read':
    case 'list':
    case 'search':
      return { kind: 'read', tool, path: file };
    default:
      return { kind: 'ask', tool: 'ask' };
  }
}

/** An editor that answers every question with `n` and records nothing else. */
const refusingEditor = {
  ask: () => Promise.resolve('n'),
} as unknown as LineEditor;

/** Enough of a chat for the slash commands that echo text. */
function fakeChat(hostile: string, c: Colors, stderr: NodeJS.WritableStream): ChatSession {
  return {
    output: { stderr, colors: c },
    agent: {
      state: {
        todos: [{ task: `task ${hostile}`, status: 'pending' }],
        grants: { list: () => [`Bash(${hostile})`] },
      },
      options: { permissions: { allow: [`Read(${hostile})`], ask: [], deny: [] } },
      mode: 'ask',
    },
  } as unknown as ChatSession;
}

const PLAN: (hostile: string) => AuditPlan = (hostile) => ({
  root: `/repo/${hostile}`,
  files: { reviewed: 1, skipped: { [`odd${hostile}`]: 1 }, failed: {} },
  chunks: [
    {
      id: 'abcdef0123456789',
      tokens: 10,
      providerTokens: 13,
      files: 2,
      firstPath: `a${hostile}.ts`,
      lastPath: `z${hostile}.ts`,
      riskScore: 1,
    },
  ],
  scope: 'shipping',
  riskiest: null,
  chunksNeeded: 1,
  neededProviderTokens: 13,
  folders: [
    {
      folder: `src${hostile}/`,
      files: 1,
      tokens: 10,
      deterministicFiles: 0,
      deterministicTokens: 0,
    },
  ],
  largestFiles: [{ path: `a${hostile}.ts`, kind: 'source', tokens: 10 }],
  deterministicByKind: { test: 1 },
  chunkTokens: 1000,
  budgetTokens: 769,
  headroom: 1.3,
  encoding: 'o200k_base',
  mapCalls: 1,
  reduceCalls: 1,
  contentProviderTokens: 13,
  maxChunks: 10,
  exceedsMaxChunks: false,
  planHash: 'hash',
});

const CASES: Case[] = [
  {
    name: 'oy run text renderer (events from the model and tools)',
    render(hostile, c) {
      const out = sink(true);
      const err = sink(true);
      const renderer = createTextRenderer({
        stdout: out.stream,
        stderr: err.stream,
        colors: c,
        isQuiet: false,
      });
      for (const event of hostileEvents(hostile)) renderer.render(event);
      return out.text() + err.text();
    },
  },
  {
    name: 'Markdown stream on its own (prose, headings, code and diff fences)',
    render(hostile, c) {
      const out = sink(true);
      const markdown = createMarkdownStream(out.stream, c, true);
      for (const piece of [`# ${hostile}\n- **${hostile}**\n`, '```diff\n', `+${hostile}\n`])
        markdown.write(piece);
      markdown.write('```\n```ts\n');
      markdown.write(`const x = "${hostile}"; // ${hostile}\n\`\`\`\n> ${hostile}`);
      markdown.end();
      return out.text();
    },
  },
  {
    name: 'oy chat turn view (statuses, folded command output, a table)',
    render(hostile, c) {
      const out = sink(false);
      const view = createTurnView({
        output: {
          stdout: out.stream,
          stderr: out.stream,
          colors: c,
          answerColors: c,
          isMarkdown: true,
        },
        signal: new AbortController().signal,
        keepCommandOutput: () => undefined,
      });
      const lines = Array.from({ length: 20 }, (_, index) => `${index} ${hostile}`).join('\n');
      const content = JSON.stringify({
        ok: true,
        exit_code: 3,
        signal: null,
        stdout: lines,
        stderr: hostile,
      });
      view.render({
        type: 'text_delta',
        text: `| ${hostile} | b |\n|---|---|\n| x | ${hostile} |\n\n`,
      });
      for (const event of hostileEvents(hostile)) view.render(event);
      view.render({
        type: 'tool_call',
        call: { id: 'c9', name: 'bash', arguments: { command: hostile } },
      });
      view.render({
        type: 'tool_result',
        toolCallId: 'c9',
        tool: 'bash',
        ok: true,
        content,
        durationMs: 1,
      });
      view.end();
      return out.text();
    },
  },
  {
    name: 'Markdown stream drawing unfinished lines in place (its own cursor moves left out)',
    render(hostile, c) {
      const out = sink(true);
      const markdown = createMarkdownStream(out.stream, c, true, {
        columns: () => 30,
        rows: () => 10,
      });
      for (const piece of [`${hostile} and`, ` more ${hostile}\n| a | ${hostile}`, ' |\n|-|-|\n'])
        markdown.write(piece);
      markdown.endLine();
      markdown.end();
      // The only sequences the stream itself writes: back to the start of what it drew, and erase below.
      // eslint-disable-next-line no-control-regex -- those sequences are what is taken out
      return out.text().replace(/\r(\u001b\[\d+A)?\u001b\[J/gu, '');
    },
  },
  {
    name: '/diff of files with hostile names and content',
    async render(hostile, c) {
      const root = mkdtempSync(path.join(tmpdir(), 'oy-diff-hostile-'));
      try {
        const name = `notes-${hostile.replaceAll('/', '_')}.txt`;
        writeFileSync(path.join(root, name), `new ${hostile}\n`);
        const originals = new Map([[name, Buffer.from(`old ${hostile}\n`)]]);
        return await formatSessionDiff(root, originals, c);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'Markdown stream passing text through (no colours)',
    render(hostile) {
      const out = sink(false);
      const markdown = createMarkdownStream(out.stream, createColors(false), false);
      markdown.write(hostile);
      markdown.end();
      return out.text();
    },
  },
  {
    name: 'oy run --json events',
    render(hostile) {
      const out = sink(true);
      const renderer = createJsonRenderer(out.stream);
      for (const event of hostileEvents(hostile)) renderer.render(event);
      // Still JSON, and the same values.
      const lines = out.text().trimEnd().split('\n');
      expect(JSON.parse(lines[0]!)).toEqual(hostileEvents(hostile)[0]);
      return out.text();
    },
  },
  {
    name: 'tool call progress line',
    render: (hostile) =>
      describeToolCall({ id: 'c', name: 'bash', arguments: { command: hostile } }) +
      describeToolCall({ id: 'c', name: `tool${hostile}`, arguments: {} }),
  },
  ...(['bash', 'write', 'edit', 'replace', 'todo', 'webfetch', 'read', 'ask'] as const).map(
    (tool): Case => ({
      name: `approval preview of ${tool}`,
      render: (hostile, c) => printed(renderApproval(approval(tool, hostile), c)),
    }),
  ),
  {
    name: 'approval preview of an MCP call (hostile server and tool names, hostile arguments)',
    render: (hostile, c) =>
      printed(
        renderApproval(
          {
            tool: 'mcp__x__y',
            toolCallId: 'c',
            action: {
              kind: 'mcp',
              tool: 'mcp',
              mcp: { server: `srv${hostile}`, tool: `tool${hostile}`, isReadOnly: false },
            },
            preview: JSON.stringify({ query: hostile, padding: ' '.repeat(5000) + hostile }),
            always: `always: allows the MCP tool srv${hostile}:tool${hostile} (any arguments)`,
          },
          c,
        ),
      ),
  },
  {
    name: 'approval summary of a replace over several files',
    render: (hostile, c) =>
      printed(
        renderApproval(
          {
            tool: 'replace',
            toolCallId: 'c',
            action: {
              kind: 'write',
              tool: 'replace',
              path: '.',
              files: [`a${hostile}`, `b${hostile}`],
            },
          },
          c,
        ),
      ),
  },
  {
    // Past three files the summary names the folder the model gave instead: that path is hostile too.
    name: 'approval summary of a replace under a folder, over many files',
    render: (hostile, c) =>
      printed(
        renderApproval(
          {
            tool: 'replace',
            toolCallId: 'c',
            action: {
              kind: 'write',
              tool: 'replace',
              path: `src${hostile}`,
              files: [1, 2, 3, 4, 5].map((n) => `src${hostile}/f${n}.ts`),
            },
          },
          c,
        ),
      ),
  },
  {
    name: 'chat approver and ask tool (question and choices)',
    async render(hostile, c) {
      const err = sink(true);
      const channel = {
        editor: refusingEditor,
        stderr: err.stream,
        colors: c,
        pause: () => () => undefined,
      };
      await createChatApprover(channel)(approval('bash', hostile), {
        decision: 'ask',
        reason: hostile,
      });
      await createAskUser(channel)(`Which ${hostile}?`, [`one ${hostile}`, 'two']);
      return err.text();
    },
  },
  {
    name: 'a diff coloured on its own',
    render: (hostile, c) => colorizeDiff(`+added ${hostile}\n-removed ${hostile}`, c),
  },
  {
    name: 'errors (oy, a bad flag and unknown, verbose)',
    render(hostile) {
      const err = sink(true);
      handleError(new UsageError(`bad ${hostile}`, { hint: `try ${hostile}` }), true, err.stream);
      for (const args of [
        ['audit', `--x${hostile}`],
        ['audit', '--format', hostile],
      ])
        handleError(
          catchError(() => parseCommandLine(args)),
          false,
          err.stream,
        );
      handleError(new Error(`boom ${hostile}`), true, err.stream);
      handleError(new Error(`boom ${hostile}`), false, err.stream);
      return err.text();
    },
  },
  {
    name: 'audit --dry-run plan',
    render: (hostile) => renderPlan(PLAN(hostile)),
  },
  {
    name: 'audit progress on a terminal and in a log',
    render(hostile) {
      const texts: string[] = [];
      for (const isTTY of [true, false]) {
        const err = sink(isTTY);
        const progress = createProgressRenderer(err.stream, false);
        progress.render({ stage: 'review', done: 1, total: 1, message: hostile });
        progress.finish();
        // The renderer's own line control (CR, erase line) is not data: drop exactly it.
        texts.push(err.text().replaceAll('\r\u001b[2K', ''));
      }
      return texts.join('\n');
    },
  },
  {
    name: 'oy sessions listing',
    render: (hostile, c) =>
      renderSessionList(
        [
          {
            id: 's1',
            number: 1,
            updatedAt: '2026-01-01T00:00:00Z',
            turns: 1,
            costUsd: null,
            model: 'm',
            firstPrompt: hostile,
            name: hostile,
          } as unknown as Parameters<typeof renderSessionList>[0][number],
        ],
        c,
      ),
  },
  {
    name: 'status line',
    render: (hostile) =>
      formatStatusLine({ modelId: hostile, mode: 'ask', contextTokens: 1, costUsd: null }),
  },
  {
    name: 'doctor report',
    render: (hostile, c) =>
      renderDoctorReport(
        [{ id: 'workspace', status: 'warn', detail: `at ${hostile}`, hint: `fix ${hostile}` }],
        c,
      ),
  },
  {
    name: 'model listing (ids and errors from a provider)',
    render: (hostile, c) =>
      renderModelListing(
        {
          default: null,
          defaultError: `bad ${hostile}`,
          credentials: [],
          catalogue: [
            {
              provider: 'anthropic',
              source: 's',
              models: [{ id: hostile, deprecatedUntil: null }],
              error: hostile,
            },
          ],
          discovered: [
            { provider: 'ollama', endpoint: hostile, models: [hostile], error: null },
          ] as never,
        },
        c,
      ),
  },
  ...['/todo', '/permissions', '/mode hostile', '/model hostile'].map((line): Case => ({
    name: `slash command ${line.split(' ')[0]}`,
    async render(hostile, c) {
      const err = sink(true);
      const chat = fakeChat(hostile, c, err.stream);
      const command = parseSlashCommand(line.replace('hostile', hostile));
      await runSlashCommand(
        Object.assign(chat, {
          options: {
            ...chat.options,
            createClient: () => Promise.reject(new UsageError(`no model ${hostile}`)),
          },
        }),
        command!,
      );
      return err.text();
    },
  })),
];

describe('every renderer of untrusted text, with hostile input', () => {
  for (const isColoured of [false, true]) {
    const c = createColors(isColoured);
    it.each(CASES.map((entry) => [entry.name, entry]))(
      `%s (colours ${isColoured ? 'on' : 'off'})`,
      async (_, entry) => {
        const { canary, text } = makeHostileText();
        const output = await entry.render(text, c);
        expect(findRawControls(output, { allowOwnColours: isColoured })).toEqual([]);
        // The text was shown, not dropped, with its escapes visible.
        expect(output).toContain(canary);
        expect(output.includes('^[') || output.includes('\\u001b')).toBe(true);
      },
    );
  }

  it("keeps oy's own colours", () => {
    const { text } = makeHostileText();
    const output = renderApproval(approval('write', text), createColors(true)).text;
    expect(output).toContain('\u001b[32m+new');
    expect(output).toContain('\u001b[1m');
  });

  it('the line editor draws pasted input with the same visible forms, and counts their width', () => {
    const { canary, text } = makeHostileText();
    const layout = layoutInput({ first: 'oy> ', continuation: '... ' }, { text, cursor: 0 }, 1000);
    // The editor's own line breaks are CRLF; only those may remain.
    expect(findRawControls(layout.content.replaceAll('\r\n', '\n'))).toEqual([]);
    expect(layout.content).toContain(`${canary} #^[[2K^[[1G$ npm test`);
    expect(layout.content).toContain('<U+202E>evil');
    expect(layout.endCol).toBe(layout.content.split('\r\n').at(-1)!.length);
  });

  it('control: the check finds the raw hostile text, and each of its escapes', () => {
    const { text, clipboard } = makeHostileText();
    expect(findRawControls(text).length).toBeGreaterThan(5);
    expect(findRawControls(clipboard).map((found) => found.char)).toEqual(['U+001b', 'U+0007']);
    // Even with oy's colours allowed, a hostile conceal sequence is still caught.
    expect(findRawControls('\u001b[8mhidden', { allowOwnColours: true })).not.toEqual([]);
  });
});

console.log(`terminal safety renderer suite: ${CASES.length * 2 + 3} cases`);
