import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentSession } from '../../../src/agent/agent-session.js';
import { ChatSession } from '../../../src/cli/chat/chat-session.js';
import { runChat } from '../../../src/cli/chat/run-chat.js';
import { createColors } from '../../../src/cli/terminal.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import type { ScriptedAnswer } from '../../fakes/script.js';
import { reply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { ESC, findRawControls, makeHostileText } from '../../support/hostile-terminal-text.js';
import { answer, makeWorkspace, say, ScriptedEditor } from './chat-harness.js';

/**
 * A prompt-injected model writes terminal escapes everywhere it can reach a person's screen in
 * `oy chat` on a terminal (colours on, Markdown rendered, the spinner and in-place redraws live):
 * streamed text split mid-sequence, thinking, a table cell, tool names, tool arguments shown in
 * approval previews and status lines, a command's own output (folded, then whole with /output) and
 * a file name in /diff. The canary is any control a terminal would act on that oy did not write
 * itself; the hostile text must still be shown (its word is on screen).
 */

/** A terminal that keeps what is written. */
class Screen {
  text = '';
  readonly isTTY = true;
  readonly columns = 60;
  readonly rows = 30;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

/** oy's own terminal sequences: the spinner's line clear, the in-place redraw, picocolors' colours (findRawControls). */
function withoutOwnSequences(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the sequences oy writes
  return text.replace(/\r\u001b\[2K|\r(?:\u001b\[\d+A)?\u001b\[J/gu, '');
}

function rawControls(text: string) {
  return findRawControls(withoutOwnSequences(text), { allowOwnColours: true });
}

/** Splits `text` at every few characters, so sequences arrive in pieces. */
function pieces(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size)
    parts.push(text.slice(index, index + size));
  return parts;
}

async function runHostileChat(): Promise<{ stdout: string; stderr: string; canary: string }> {
  const hostile = makeHostileText();
  const h = hostile.text;
  const root = makeWorkspace();
  const printed = path.join(root, 'printed.txt');
  writeFileSync(printed, `${'line\n'.repeat(12)}${h}\n${'line\n'.repeat(12)}`);
  const streamed = `Intro ${h} tail\n\n| tool | note |\n|---|---|\n| bash | ${h} |\n\nAfter **${h}** and \`${h}\`\n\`\`\`ts\nconst x = "${h}";\n\`\`\`\n`;
  const first: ScriptedAnswer = {
    kind: 'answer',
    thinking: [{ text: `thinking ${h}` }],
    textChunks: pieces(streamed, 3),
    toolCalls: [
      // Approved: its output carries raw escapes of its own.
      { name: 'bash', arguments: { command: `cat printed.txt # ${h}` } },
      // Refused at the prompt: the preview shows the command.
      { name: 'bash', arguments: { command: `touch PWNED #${h}` } },
      { name: 'read', arguments: { path: `notes${h}.md` } },
      { name: `evil${h}`, arguments: { path: h } },
      { name: 'write', arguments: { path: `out${ESC}]0;title${h}.txt`, content: `${h}\n` } },
    ],
  };
  const fake = new ScriptedModelClient({
    script: [first, reply.text(`Done ${h}\n`)],
  });
  const redactor = createRedactor();
  const editor = new ScriptedEditor([
    say('go'),
    answer('y'),
    answer('n'),
    answer('y'),
    say('/output'),
    say('/diff'),
  ]);
  const stdout = new Screen();
  const stderr = new Screen();
  const chat = new ChatSession({
    agent: new AgentSession({
      workspaceRoot: root,
      stateDir: `${root}-state`,
      env: { PATH: process.env.PATH ?? '' },
      client: fake.asModel(parseModelId('anthropic::claude-haiku-4-5')),
      mode: 'ask',
      permissions: { allow: [], ask: [], deny: [] },
      agent: { sandbox: 'off', allowEnv: [], network: false, contextWindow: null },
      instructions: [],
      redact: (text) => redactor.redact(text).text,
      oyVersion: 'test',
      today: '2025-01-01',
    }),
    createClient: async (ref) => fake.asModel(ref),
    editor,
    output: {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WritableStream,
      colors: createColors(true),
      answerColors: createColors(true),
      isMarkdown: true,
    },
  });
  await chat.agent.start();
  try {
    await runChat(chat, editor);
  } finally {
    await chat.agent.dispose();
  }
  expect(editor.errors).toEqual([]);
  expect(existsSync(path.join(root, 'PWNED'))).toBe(false);
  return { stdout: stdout.text, stderr: stderr.text, canary: hostile.canary };
}

describe('oy chat on a terminal, against a model that writes escapes', () => {
  it('shows every hostile string inertly: no control but its own reaches the screen', async () => {
    const { stdout, stderr, canary } = await runHostileChat();
    expect(rawControls(stdout)).toEqual([]);
    expect(rawControls(stderr)).toEqual([]);
    // The text was shown, not dropped: in the answer, the approval preview, the status lines,
    // the folded and the whole command output, and /diff.
    expect(stdout).toContain(canary);
    expect(stderr).toContain(`touch PWNED #${canary}`);
    expect(stderr).toMatch(/\/output shows them all/u);
    expect(stderr.split(canary).length).toBeGreaterThan(6);
    // oy's own drawing is still there: colours, the spinner and redraws in place.
    expect(stdout).toContain(`${ESC}[`);
    expect(stderr).toContain(`\r${ESC}[2K`);
  });

  it('control: the same hostile text written raw is caught by the check', () => {
    const hostile = makeHostileText();
    expect(rawControls(`answer ${hostile.text}\n`).length).toBeGreaterThan(5);
    // Even hidden behind one of oy's own sequences.
    expect(rawControls(`\r${ESC}[2K${hostile.clipboard}`).length).toBeGreaterThan(0);
  });
});
