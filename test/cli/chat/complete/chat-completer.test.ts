import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMentionCompleter } from '../../../../src/cli/chat/attach/complete-mention.js';
import { createSlashCompleter } from '../../../../src/cli/chat/complete/complete-slash-command.js';
import { createChatCompleter } from '../../../../src/cli/chat/complete/create-chat-completer.js';
import { listKnownModelIds } from '../../../../src/cli/chat/complete/list-known-model-ids.js';
import { randomChars } from '../../../support/vendor-token-samples.js';

/**
 * Tab in `oy chat`: slash commands and their arguments, and `@` names from the workspace that git
 * does not ignore, never through a link that leads out, never a name a mention cannot carry.
 */
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
let outer: string;
let root: string;
let outside: string;
const canRead = () => true;
const home = {};

beforeAll(() => {
  // The workspace is a folder of a git work tree: the .gitignore above it counts too.
  outer = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-complete-')));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-complete-outside-')));
  mkdirSync(path.join(outer, '.git', 'info'), { recursive: true });
  writeFileSync(path.join(outer, '.git', 'info', 'exclude'), 'excluded.txt\n');
  writeFileSync(path.join(outer, '.gitignore'), 'ws/generated/\n');
  root = path.join(outer, 'ws');
  for (const folder of ['src/nested', 'generated', 'build', 'docs'])
    mkdirSync(path.join(root, folder), { recursive: true });
  writeFileSync(path.join(root, '.gitignore'), 'build/\n*.log\n');
  writeFileSync(path.join(root, 'src', '.gitignore'), 'local-notes.md\n');
  for (const file of [
    'src/app.ts',
    'src/api.ts',
    'src/debug.log',
    'src/local-notes.md',
    'src/nested/deep.ts',
    'generated/out.ts',
    'build/bundle.js',
    'excluded.txt',
    'README.md',
    '.env',
  ])
    writeFileSync(path.join(root, file), 'x\n');
  mkdirSync(path.join(outside, 'secrets'));
  writeFileSync(path.join(outside, 'secrets', 'key.pem'), 'x\n');
  symlinkSync(outside, path.join(root, 'src', 'out-link'));
  symlinkSync(path.join(outside, 'secrets', 'key.pem'), path.join(root, 'src', 'key-link.pem'));
  symlinkSync(path.join(root, 'docs'), path.join(root, 'src', 'docs-link'));
  // Names a mention cannot carry, or that would draw something on the terminal.
  for (const hostile of ['apple pie.ts', 'ap\x1b[31mred.ts', 'ap\nnext.ts', 'ap@host.ts'])
    writeFileSync(path.join(root, 'src', hostile), 'x\n');
});
afterAll(() => {
  rmSync(outer, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('@ mentions', () => {
  const complete = (text: string) => createMentionCompleter(root, canRead, home)(text, text.length);

  it('lists a folder without what the .gitignore files and info/exclude ignore', async () => {
    expect(await complete('look at @src/')).toEqual({
      insert: '',
      candidates: ['api.ts', 'app.ts', 'docs-link/', 'nested/'],
    });
    expect(await complete('@')).toEqual({
      insert: '',
      candidates: ['docs/', 'README.md', 'src/'],
    });
    expect(await complete('@gen')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@generated/')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@build/')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@exc')).toEqual({ insert: '', candidates: [] });
  });

  it('never follows a link out of the workspace; a link inside is a folder like any other', async () => {
    expect(await complete('@src/out')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@src/out-link/')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@src/out-link/secrets/')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@src/key')).toEqual({ insert: '', candidates: [] });
    expect(await complete('@src/docs')).toEqual({ insert: '-link/', candidates: [] });
  });

  it('offers no name with a space, an @ or a control character', async () => {
    const result = await complete('@src/ap');
    expect(result).toEqual({ insert: '', candidates: ['api.ts', 'app.ts'] });
  });

  it('dot files only when a dot is typed; names only, never contents', async () => {
    expect(await complete('@.e')).toEqual({ insert: 'nv ', candidates: [] });
  });
});

describe('slash commands', () => {
  const sessions = [`20250101-000000-${randomChars(ALNUM, 6)}`, 'bugfix'];
  const complete = (text: string) =>
    createSlashCompleter({
      modelIds: () => ['anthropic::claude-haiku-4-5', 'anthropic::claude-sonnet-4-5', 'gpt-4o'],
      sessionKeys: async () => sessions,
    })(text, text.length);

  it.each([
    ['/mo', { insert: 'de', candidates: ['/mode', '/model'] }],
    ['/he', { insert: 'lp', candidates: [] }],
    ['/mod', { insert: 'e', candidates: ['/mode', '/model'] }],
    ['/modes', { insert: '', candidates: [] }],
    ['/mode ', { insert: '', candidates: ['ask', 'auto', 'edit', 'plan'] }],
    ['/mode a', { insert: '', candidates: ['ask', 'auto'] }],
    ['/mode p', { insert: 'lan', candidates: [] }],
    ['/save', { insert: ' ', candidates: [] }],
    ['/model anthropic::claude-h', { insert: 'aiku-4-5', candidates: [] }],
    [
      '/model anth',
      {
        insert: 'ropic::claude-',
        candidates: ['anthropic::claude-haiku-4-5', 'anthropic::claude-sonnet-4-5'],
      },
    ],
    ['/load b', { insert: 'ugfix', candidates: [] }],
    ['/resume 2025', { insert: sessions[0]!.slice(4), candidates: [] }],
    ['/thinking o', { insert: '', candidates: ['off', 'on'] }],
    ['/help me', { insert: '', candidates: [] }],
    ['/nosuch x', { insert: '', candidates: [] }],
    ['/mode plan extra', { insert: '', candidates: [] }],
  ])('%j', async (text, expected) => {
    expect(await complete(text)).toEqual(expected);
  });

  it('leaves other input, and the free text of /ask, to the mention completer', async () => {
    expect(await complete('hello /mo')).toBeUndefined();
    expect(await complete('/ask what is @sr')).toBeUndefined();
    expect(await complete('/mo\nde')).toBeUndefined();
  });

  it('routes to mentions inside /ask through the chat completer', async () => {
    const chat = createChatCompleter({
      workspaceRoot: root,
      stateDir: path.join(outer, 'state'),
      canRead,
      home,
      configuredModels: ['local-8080::qwen3'],
    });
    const text = '/ask what is in @sr';
    expect(await chat(text, text.length)).toEqual({ insert: 'c/', candidates: [] });
    expect(await chat('/load ', 6)).toEqual({ insert: '', candidates: [] });
    expect(await chat('/model local', 12)).toEqual({ insert: '-8080::qwen3', candidates: [] });
  });
});

describe('known model ids', () => {
  it('lists the SDK catalogue, the price table and the config, each once and sorted', () => {
    const ids = listKnownModelIds(['local-8080::qwen3', 'anthropic::claude-haiku-4-5']);
    expect(ids).toContain('anthropic::claude-haiku-4-5');
    expect(ids).toContain('local-8080::qwen3');
    expect(ids.some((id) => id.startsWith('openai::'))).toBe(true);
    expect(ids.some((id) => id.startsWith('bedrock::'))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
