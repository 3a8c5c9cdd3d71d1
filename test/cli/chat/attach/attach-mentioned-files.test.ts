import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../../../src/agent/authorize/create-authorizer.js';
import { SessionGrants } from '../../../../src/agent/authorize/session-grants.js';
import { attachMentionedFiles } from '../../../../src/cli/chat/attach/attach-mentioned-files.js';
import { createMentionCompleter } from '../../../../src/cli/chat/attach/complete-mention.js';
import { findMentions } from '../../../../src/cli/chat/attach/find-mentions.js';
import { parsePermissionRules } from '../../../../src/safety/policy/permission-rule.js';
import { createReadCheck } from '../../../../src/safety/policy/read-access.js';
import { createRedactor } from '../../../../src/safety/redact/index.js';
import { randomChars } from '../../../support/vendor-token-samples.js';

/**
 * `@path` attachments go through the read tool's own door: each case plants a fresh canary that
 * must not reach the prompt (a denied file, a refused secret file, a secret inside a file), next to
 * a control value from the same file that does, so a case cannot pass by attaching nothing.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const rules = parsePermissionRules({ allow: [], ask: [], deny: ['Read(private/**)'] });
let root: string;
let outside: string;
const canary = () => `canary${randomChars(ALNUM, 12)}`;
const token = `ghp_${randomChars(ALNUM, 36)}`;
const envSecret = `sk-${randomChars(ALNUM, 48)}`;
const privateCanary = canary();
const outsideCanary = canary();
let cases = 0;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-attach-')));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-attach-outside-')));
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'private'));
  writeFileSync(
    path.join(root, 'src', 'app.ts'),
    `const marker = 'app-marker';\nconst t = "${token}";\n`,
  );
  writeFileSync(path.join(root, 'src', 'api.ts'), 'export {};\n');
  writeFileSync(path.join(root, 'private', 'notes.txt'), `${privateCanary}\n`);
  writeFileSync(path.join(root, '.env'), `MARKER=env-marker\nOPENAI_API_KEY=${envSecret}\n`);
  writeFileSync(path.join(outside, 'secret.txt'), `${outsideCanary}\n`);
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
});
afterAll(() => {
  console.log(`chat @path attachments: ${cases} cases`);
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function attach(prompt: string, answer: ApprovalAnswer = 'no') {
  const redactor = createRedactor();
  const asked: string[] = [];
  const result = attachMentionedFiles(prompt, {
    workspaceRoot: root,
    mode: 'ask',
    rules,
    grants: new SessionGrants(),
    redact: (text) => redactor.redact(text).text,
    interaction: {
      approve: async (request) => {
        asked.push(
          request.action.kind === 'read' && 'path' in request.action ? request.action.path : '',
        );
        return answer;
      },
      ask: async () => '',
    },
    signal: new AbortController().signal,
  });
  cases += 1;
  return result.then((value) => ({ ...value, asked, text: JSON.stringify(value) }));
}

describe('chat @path attachments', () => {
  it('finds mentions, not e-mail addresses, without trailing punctuation', () => {
    expect(findMentions('see @src/app.ts, and @a.md. mail me@example.com @src/app.ts')).toEqual([
      'src/app.ts',
      'a.md',
    ]);
    cases += 1;
  });

  it('attaches a file numbered, with its secrets redacted', async () => {
    // Control: the redactor knows the token, so an attachment that skipped it would leak.
    expect(createRedactor().redact(token).text).not.toContain(token);
    const result = await attach('explain @src/app.ts');
    expect(result.ok).toBe(true);
    expect(result.text).toContain('app-marker');
    expect(result.text).toContain('Attached file src/app.ts (2 lines');
    expect(result.text).not.toContain(token);
  });

  it('refuses a file a Read deny rule covers, and sends nothing', async () => {
    const result = await attach('look at @private/notes.txt and @src/app.ts');
    expect(result.ok).toBe(false);
    expect(result.text).toContain('Read(private/**)');
    expect(result.text).not.toContain(privateCanary);
    expect(result.text).not.toContain('app-marker');
  });

  it('asks before a secret-bearing file: no refuses it, yes attaches it redacted', async () => {
    const refused = await attach('check @.env', 'no');
    expect(refused.asked).toEqual(['.env']);
    expect(refused.ok).toBe(false);
    expect(refused.text).not.toContain(envSecret);
    expect(refused.text).not.toContain('env-marker');
    const approved = await attach('check @.env', 'yes');
    expect(approved.ok).toBe(true);
    expect(approved.text).toContain('env-marker');
    expect(approved.text).not.toContain(envSecret);
  });

  it('refuses a link out of the workspace and a path outside it', async () => {
    for (const prompt of [
      'read @link.txt',
      `read @${path.join(outside, 'secret.txt')}`,
      'read @../x',
    ]) {
      const result = await attach(prompt);
      expect(result.ok).toBe(false);
      expect(result.text).not.toContain(outsideCanary);
    }
  });

  it('leaves a mention that names no file as text', async () => {
    const result = await attach('thanks @alice');
    expect(result).toMatchObject({ ok: true, prompt: 'thanks @alice', notFound: ['alice'] });
  });

  it('Tab completes names in the workspace, never ones the Read rules refuse', async () => {
    const complete = createMentionCompleter(root, createReadCheck(rules, root));
    expect(await complete('see @src/ap', 11)).toEqual({
      insert: '',
      candidates: ['api.ts', 'app.ts'],
    });
    expect(await complete('see @src/app', 12)).toEqual({ insert: '.ts ', candidates: [] });
    expect(await complete('@sr', 3)).toEqual({ insert: 'c/', candidates: [] });
    expect(await complete('@private/', 9)).toEqual({ insert: '', candidates: [] });
    expect(await complete('@.e', 3)).toEqual({ insert: 'nv ', candidates: [] });
    expect(await complete('@../', 4)).toEqual({ insert: '', candidates: [] });
    expect(await complete('no mention', 10)).toBeUndefined();
    cases += 7;
  });
});
