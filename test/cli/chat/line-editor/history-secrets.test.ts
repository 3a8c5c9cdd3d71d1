import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createLineEditor,
  type LineEditor,
} from '../../../../src/cli/chat/line-editor/create-line-editor.js';
import { openHistoryStore } from '../../../../src/cli/chat/line-editor/history-store.js';
import { createSecretFactory } from '../../../support/secret-factory.js';
import { KEY, createFakeTerminal, settle } from './fake-terminal.js';

// Seeded from the clock: new tokens every run, printed so a failure can be replayed.
const seed = Date.now() % 1_000_000_007;
const f = createSecretFactory(seed);
let cases = 0;
afterAll(() => console.log(`history secrets: ${cases} cases (seed ${seed})`));

let editors: LineEditor[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function historyFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oy-history-secret-')), 'oy', 'history');
}

async function typeInChat(file: string, text: string) {
  const terminal = createFakeTerminal();
  const editor = createLineEditor({
    input: terminal.input,
    output: terminal.output,
    historyFile: file,
  });
  editors.push(editor);
  const result = editor.read('oy> ');
  await settle();
  await terminal.type(text);
  await terminal.type(KEY.enter);
  return result;
}

const SECRETS: Array<[kind: string, make: () => string, inText?: (secret: string) => string]> = [
  ['github token', () => f.githubToken('p')],
  ['anthropic key', () => f.anthropicKey()],
  ['aws key id', () => f.awsAccessKeyId()],
  ['glued stripe key', () => f.stripeLive('s'), (secret) => `X${secret}`],
  ['url password', () => f.password(), (secret) => `postgres://app:${secret}@db.internal/app`],
];

describe('the line-editor history file never holds a secret typed into chat', () => {
  it.each(SECRETS)('%s', async (_kind, make, inText = (secret) => secret) => {
    const secret = make();
    const file = historyFile();
    const typed = `please deploy with ${inText(secret)} today`;
    // The chat itself gets what was typed; its session redacts it before sending or saving.
    await expect(typeInChat(file, typed)).resolves.toEqual({ kind: 'submit', text: typed });
    const saved = fs.readFileSync(file, 'utf8');
    expect(saved).toContain('please deploy with');
    expect(saved).toContain('[REDACTED:');
    expect(saved).not.toContain(secret.slice(-12));
    cases += 1;
  });

  it('rewrites a history file that an older version saved with a secret in clear', () => {
    const token = f.githubToken('p');
    const file = historyFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify('ls')}\n${JSON.stringify(`token ${token}`)}\n`);
    const store = openHistoryStore(file, 100);
    expect(store.entries[1]).toMatch(/^token \[REDACTED:github-token:\d+\]$/);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(token);
    expect(fs.readFileSync(file, 'utf8')).toContain('"ls"');
    cases += 1;
  });

  it('control: a store that does not redact writes the token in clear', () => {
    const token = f.githubToken('p');
    const file = historyFile();
    openHistoryStore(file, 100, (text) => text).add(`token ${token}`);
    expect(fs.readFileSync(file, 'utf8')).toContain(token);
    cases += 1;
  });
});
