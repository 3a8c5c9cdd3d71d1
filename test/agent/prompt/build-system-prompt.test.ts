import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../../src/agent/prompt/build-system-prompt.js';
import {
  MAX_INSTRUCTIONS_BYTES,
  loadInstructions,
} from '../../../src/agent/prompt/load-instructions.js';
import { SAFETY_MODES } from '../../../src/safety/policy/safety-mode.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { makeWorkspace } from '../loop/loop-harness.js';

const redactor = createRedactor();
const redact = (text: string) => redactor.redact(text).text;

describe('buildSystemPrompt', () => {
  it.each(SAFETY_MODES)('reads as expected in %s mode', (mode) => {
    const prompt = buildSystemPrompt({
      mode,
      workspaceRoot: '/work/project',
      today: '2026-01-31',
      isInteractive: mode !== 'ask',
      instructions: [
        {
          label: 'AGENTS.md (workspace)',
          text: 'Run npm test before finishing.\n',
          isTruncated: false,
        },
      ],
      todos: [
        { id: '1', task: 'read the parser', status: 'done' },
        { id: '2', task: 'fix the off-by-one', status: 'in_progress' },
        { id: '3', task: 'run the tests', status: 'pending' },
      ],
    });
    expect(prompt).toMatchSnapshot();
  });

  it('is the same for the same input (no clock, so the provider cache holds) and leaves out an empty todo list', () => {
    const input = {
      mode: 'edit' as const,
      workspaceRoot: '/w',
      today: '2026-01-31',
      isInteractive: false,
      instructions: [],
      todos: [],
    };
    expect(buildSystemPrompt(input)).toBe(buildSystemPrompt(input));
    expect(buildSystemPrompt(input)).not.toContain('todo list:');
    expect(buildSystemPrompt(input)).toContain('Mode: edit');
  });

  it('says how the mode treats MCP tools only when some are offered', () => {
    const input = {
      mode: 'plan' as const,
      workspaceRoot: '/w',
      today: '2026-01-31',
      isInteractive: true,
      instructions: [],
      todos: [],
    };
    expect(buildSystemPrompt(input)).not.toContain('MCP');
    expect(buildSystemPrompt({ ...input, hasMcpTools: true })).toContain(
      "These need the user's approval: fetching URLs and using MCP server tools",
    );
  });
});

describe('loadInstructions', () => {
  it('reads AGENTS.md, OY.md and the user file, labelled and redacted', async () => {
    const root = makeWorkspace('oy-prompt-');
    const secret = createSecretFactory(3).githubToken('p');
    writeFileSync(path.join(root, 'AGENTS.md'), `Use tabs. Token: ${secret}\n`);
    writeFileSync(path.join(root, 'OY.md'), 'Prefer small commits.\n');
    const userFile = path.join(makeWorkspace('oy-prompt-user-'), 'instructions.md');
    writeFileSync(userFile, 'Answer in British English.\n');
    const loaded = await loadInstructions({
      workspaceRoot: root,
      userInstructionsFile: userFile,
      redact,
    });
    expect(loaded.files.map((file) => file.label)).toEqual([
      `${userFile} (user instructions)`,
      'AGENTS.md (workspace)',
      'OY.md (workspace)',
    ]);
    expect(loaded.files[1]!.text).toContain('Use tabs.');
    expect(loaded.files[1]!.text).not.toContain(secret);
    expect(loaded.warnings).toEqual([]);
  });

  it('refuses an AGENTS.md that is a symlink out of the workspace', async () => {
    const root = makeWorkspace('oy-prompt-');
    const outside = path.join(makeWorkspace('oy-prompt-outside-'), 'stolen.md');
    writeFileSync(outside, 'OUTSIDE CONTENT\n');
    symlinkSync(outside, path.join(root, 'AGENTS.md'));
    const loaded = await loadInstructions({ workspaceRoot: root, redact });
    expect(loaded.files).toEqual([]);
    expect(loaded.warnings.join('\n')).toContain('AGENTS.md skipped');
  });

  it('caps all instructions together at 32 KiB and says so', async () => {
    const root = makeWorkspace('oy-prompt-');
    writeFileSync(path.join(root, 'AGENTS.md'), 'a'.repeat(30 * 1024));
    writeFileSync(path.join(root, 'OY.md'), 'b'.repeat(10 * 1024));
    const loaded = await loadInstructions({ workspaceRoot: root, redact });
    const total = loaded.files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
    expect(total).toBe(MAX_INSTRUCTIONS_BYTES);
    expect(loaded.files.map((file) => file.isTruncated)).toEqual([false, true]);
    const prompt = buildSystemPrompt({
      mode: 'plan',
      workspaceRoot: root,
      today: '2026-01-31',
      isInteractive: false,
      instructions: loaded.files,
      todos: [],
    });
    expect(prompt).toContain('truncated at the 32 KiB');
  });

  it('reads nothing when there are no instruction files, and a directory named AGENTS.md is skipped', async () => {
    const root = makeWorkspace('oy-prompt-');
    mkdirSync(path.join(root, 'AGENTS.md'));
    const loaded = await loadInstructions({
      workspaceRoot: root,
      userInstructionsFile: path.join(root, 'none.md'),
      redact,
    });
    expect(loaded.files).toEqual([]);
  });
});
