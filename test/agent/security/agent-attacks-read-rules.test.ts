import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTool } from '../../../src/agent/tools/list-tool.js';
import { readTool } from '../../../src/agent/tools/read-tool.js';
import { replaceTool } from '../../../src/agent/tools/replace-tool.js';
import { searchTool } from '../../../src/agent/tools/search-tool.js';
import type { AgentTool } from '../../../src/agent/tools/tool-types.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * Read rules filter results (SECURITY.md "`Read` deny rules hide paths"): `search`, `list` and `replace` leave out what a
 * `Read(...)` deny (or ask) rule covers, from the root, a parent folder or the folder itself, with
 * any glob; the result says something was left out and never names it. Each canary is a value made
 * at run time; the controls show the same calls without the rule do reveal it.
 */

interface RuleSet {
  deny?: string[];
  ask?: string[];
  /** The files the rules cover, and the folders the starts are taken from. */
  hidden: string[];
  parent: string;
  folder: string;
}

const RULE_SETS: Record<string, RuleSet> = {
  'deny Read(secrets/**)': {
    deny: ['Read(secrets/**)'],
    hidden: ['secrets/api-key-file.txt', 'secrets/hidden-deep/nested-token.txt'],
    parent: 'secrets',
    folder: 'secrets/hidden-deep',
  },
  'deny Read(secrets) (the folder)': {
    deny: ['Read(secrets)'],
    hidden: ['secrets/api-key-file.txt', 'secrets/hidden-deep/nested-token.txt'],
    parent: '.',
    folder: 'secrets',
  },
  'deny Read(SECRETS/**) (case folded)': {
    deny: ['Read(SECRETS/**)'],
    hidden: ['secrets/api-key-file.txt', 'secrets/hidden-deep/nested-token.txt'],
    parent: 'secrets',
    folder: 'secrets/hidden-deep',
  },
  'deny Read(**/*.pem) and Read(**/*.private)': {
    deny: ['Read(**/*.pem)', 'Read(**/*.private)'],
    hidden: ['certs/server-cert.pem', 'docs/inner/notes-file.private'],
    parent: 'docs',
    folder: 'docs/inner',
  },
  'ask Read(docs/inner/)': {
    ask: ['Read(docs/inner/)'],
    hidden: ['docs/inner/notes-file.private', 'docs/inner/roadmap-draft.md'],
    parent: 'docs',
    folder: 'docs/inner',
  },
};

const FILES = [
  'secrets/api-key-file.txt',
  'secrets/hidden-deep/nested-token.txt',
  'certs/server-cert.pem',
  'docs/inner/notes-file.private',
  'docs/inner/roadmap-draft.md',
  'docs/guide.md',
  'src/app.ts',
];

interface Call {
  name: string;
  tool: AgentTool;
  args: (start: string) => Record<string, unknown>;
}

const CALLS: Call[] = [
  { name: 'search', tool: searchTool, args: (start) => ({ pattern: 'CANARY_', path: start, mode: 'literal' }) },
  { name: 'search with glob **/*', tool: searchTool, args: (start) => ({ pattern: 'CANARY_', path: start, glob: '**/*' }) },
  { name: 'search with glob *.txt', tool: searchTool, args: (start) => ({ pattern: 'CANARY_', path: start, glob: '*.txt' }) },
  { name: 'list', tool: listTool, args: (start) => ({ path: start, depth: 20 }) },
  { name: 'replace', tool: replaceTool, args: (start) => ({ pattern: 'CANARY_', replacement: 'CHANGED_', path: start, mode: 'literal' }) },
]; // prettier-ignore

let sandbox: string;
let cases = 0;

beforeAll(() => {
  sandbox = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-read-rules-')));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  console.log(`Read rules filter suite: ${cases} cases`);
});

/** A workspace where every file holds its own run-time canary; returns the canaries by path. */
function makeWorkspace(label: string): { workspace: string; canaries: Map<string, string> } {
  const workspace = path.join(sandbox, label.replace(/[^a-z0-9]+/giu, '-'));
  const canaries = new Map<string, string>();
  for (const file of FILES) {
    const canary = `CANARY_${randomBytes(8).toString('hex')}`;
    canaries.set(file, canary);
    mkdirSync(path.join(workspace, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(workspace, file), `value = "${canary}"\n`);
  }
  return { workspace, canaries };
}

/** What must never show: the hidden files' names and canaries, and a hidden folder's name the model did not give. */
function forbiddenTexts(set: RuleSet, canaries: Map<string, string>, start = '.'): string[] {
  return set.hidden.flatMap((file) => [
    path.posix.basename(file),
    canaries.get(file) ?? 'missing canary',
    ...(file.includes('hidden-deep') && !start.includes('hidden-deep') ? ['hidden-deep'] : []),
  ]);
}

describe('search, list and replace leave out what Read rules cover', () => {
  for (const [setName, set] of Object.entries(RULE_SETS)) {
    for (const start of ['.', set.parent, set.folder]) {
      for (const call of CALLS) {
        it(`${setName}: ${call.name} from ${start}`, async () => {
          cases += 1;
          const { workspace, canaries } = makeWorkspace(`${setName}-${call.name}-${start}`);
          const context = makeToolContext(workspace, {
            mode: 'edit',
            deny: set.deny ?? [],
            ask: set.ask ?? [],
          });
          const result = await call.tool.run(call.args(start), context);
          for (const text of forbiddenTexts(set, canaries, start)) expect(result.content).not.toContain(text);
          // Either refused outright, or the result says (by count) that something was left out.
          expect(result.content).toMatch(/"denied_by"|"left_out":[1-9]|left out/u);
          for (const file of set.hidden)
            expect(readFileSync(path.join(workspace, file), 'utf8')).toContain(canaries.get(file));
        });
      }
    }
  }

  it('read of a covered path stays refused', async () => {
    cases += 1;
    const { workspace, canaries } = makeWorkspace('read-refused');
    const context = makeToolContext(workspace, { deny: ['Read(secrets/**)'] });
    const result = await readTool.run({ path: 'secrets/api-key-file.txt' }, context);
    expect(result.denied?.rule).toBe('Read(secrets/**)');
    expect(result.content).not.toContain(canaries.get('secrets/api-key-file.txt'));
  });
}); // prettier-ignore

describe('controls: without the rules the same calls reveal the files', () => {
  for (const [setName, set] of Object.entries(RULE_SETS)) {
    for (const call of CALLS.filter((item) => item.name !== 'search with glob *.txt')) {
      it(`${setName}: ${call.name} from the root names what the rule would hide`, async () => {
        cases += 1;
        const { workspace, canaries } = makeWorkspace(`control-${setName}-${call.name}`);
        const context = makeToolContext(workspace, { mode: 'edit' });
        const result = await call.tool.run(call.args('.'), context);
        const visible = forbiddenTexts(set, canaries).filter((text) => result.content.includes(text));
        expect(visible.length).toBeGreaterThan(0);
        expect(result.content).not.toContain('left_out');
      });
    }
  }
}); // prettier-ignore
