import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer } from '../../../src/agent/authorize/create-authorizer.js';
import { SessionGrants } from '../../../src/agent/authorize/session-grants.js';
import { editTool } from '../../../src/agent/tools/edit-tool.js';
import { replaceTool } from '../../../src/agent/tools/replace-tool.js';
import type { AgentTool, ApprovalRequest } from '../../../src/agent/tools/tool-types.js';
import { writeTool } from '../../../src/agent/tools/write-tool.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * Secret-bearing files (SECURITY.md "Writing a secret-bearing file asks"): writing, editing or replacing in one asks in every
 * mode, auto included, unless an allow rule covers it (a deny rule still wins); `oy run` refuses it
 * and says how to allow it; no result or preview ever holds a line of its old content. The old
 * content carries a run-time marker on the very line that is edited; the control shows a plain
 * file's diff does carry it.
 */

const FILES = ['.env', 'config/credentials.json', 'deploy/prod.pem'];
const TOOLS: Record<string, { tool: AgentTool; args: (file: string) => Record<string, unknown> }> = {
  write: { tool: writeTool, args: (file) => ({ path: file, content: 'DEBUG=0\n' }) },
  edit: { tool: editTool, args: (file) => ({ path: file, old_string: 'DEBUG=1', new_string: 'DEBUG=0' }) },
  replace: { tool: replaceTool, args: (file) => ({ path: file, pattern: 'DEBUG=1', replacement: 'DEBUG=0', mode: 'literal' }) },
}; // prettier-ignore

type Setup =
  'oy run' | 'chat, yes' | 'chat, no' | 'oy run, allow rule' | 'chat, allow and deny rules';
const SETUPS: Setup[] = [
  'oy run',
  'chat, yes',
  'chat, no',
  'oy run, allow rule',
  'chat, allow and deny rules',
];
const MODES: SafetyMode[] = ['edit', 'auto'];

let sandbox: string;
let cases = 0;
beforeAll(() => {
  sandbox = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-secret-writes-')));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  console.log(`secret-bearing writes suite: ${cases} cases`);
});

function oldContent(marker: string): string {
  return `# settings ${marker}-top\nDEBUG=1 # ${marker}-same-line\nTAIL=${marker}-tail\n`;
}

async function runCase(file: string, toolName: string, mode: SafetyMode, setup: Setup) {
  const marker = `old${randomBytes(6).toString('hex')}`;
  const workspace = path.join(sandbox, `${file}-${toolName}-${mode}-${setup}`.replace(/[^a-z0-9]+/giu, '-'));
  mkdirSync(path.join(workspace, path.dirname(file)), { recursive: true });
  writeFileSync(path.join(workspace, file), oldContent(marker));
  const isInteractive = setup.startsWith('chat');
  const previews: ApprovalRequest[] = [];
  const rules = parsePermissionRules({
    allow: setup.includes('allow') ? [`Write(${file})`] : [],
    ask: [],
    deny: setup.includes('deny') ? [`Edit(${file})`] : [],
  });
  const authorize = createAuthorizer({
    redact: (text) => text,
    mode,
    rules,
    grants: new SessionGrants(),
    workspaceRoot: workspace,
    ...(isInteractive
      ? {
          interaction: {
            approve: async (request: ApprovalRequest) => {
              previews.push(request);
              return setup === 'chat, no' ? ('no' as const) : ('yes' as const);
            },
            ask: async () => '',
          },
        }
      : {}),
    onApproval: () => undefined,
  });
  const context = { ...makeToolContext(workspace, { mode }), authorize };
  const spec = TOOLS[toolName];
  if (spec === undefined) throw new Error(`no tool ${toolName}`);
  const result = await spec.tool.run(spec.args(file), context);
  const after = readFileSync(path.join(workspace, file), 'utf8');
  return { marker, result, previews, changed: after !== oldContent(marker) };
} // prettier-ignore

describe('secret-bearing files: writes ask, oy run refuses, old content never shows', () => {
  for (const file of FILES) {
    for (const toolName of Object.keys(TOOLS)) {
      for (const mode of MODES) {
        for (const setup of SETUPS) {
          it(`${toolName} ${file} in ${mode} mode, ${setup}`, async () => {
            cases += 1;
            const { marker, result, previews, changed } = await runCase(file, toolName, mode, setup);
            const isAsked = setup === 'chat, yes' || setup === 'chat, no';
            const shouldRun = setup === 'chat, yes' || setup === 'oy run, allow rule';
            expect(previews).toHaveLength(isAsked ? 1 : 0);
            expect(changed).toBe(shouldRun);
            expect(result.ok).toBe(shouldRun);
            for (const text of [result.content, ...previews.map((p) => p.preview ?? '')])
              expect(text).not.toContain(marker);
            if (setup === 'oy run') {
              expect(result.denied?.rule).toBe('secret-bearing-file');
              expect(result.denied?.reason).toContain(`add Write(${file}) to "permissions.allow"`);
            }
            if (setup === 'chat, allow and deny rules') expect(result.denied?.rule).toBe(`Edit(${file})`);
            if (isAsked) expect(previews[0]?.preview).toContain('existing content of');
          });
        }
      }
    }
  }
}); // prettier-ignore

describe('control: a plain file is written without asking and its diff shows the old lines', () => {
  for (const toolName of Object.keys(TOOLS)) {
    it(`${toolName} notes.txt in auto mode`, async () => {
      cases += 1;
      const { marker, result, previews, changed } = await runCase('notes.txt', toolName, 'auto', 'oy run');
      expect(previews).toHaveLength(0);
      expect(changed).toBe(true);
      expect(result.content).toContain(marker);
    });
  }
}); // prettier-ignore
