import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';

/**
 * Secret-bearing writes through the built `oy run` (SECURITY.md "Writing a secret-bearing file asks"): in auto mode a model's
 * write, edit and replace of `.env` are refused with how to allow them; with an allow rule they run,
 * and neither the model, the terminal nor the session file ever sees a line of the old content.
 */
const MODEL = 'anthropic::claude-haiku-4-5';

let fake: FakeProviderServer;
let workspace: string;
let marker: string;
let cases = 0;

const oldEnv = () => `# ${marker}-top\nDEBUG=1 # ${marker}-same-line\n`;

beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-secret-writes-e2e-')));
  marker = `old${randomBytes(6).toString('hex')}`;
  writeFileSync(path.join(workspace, '.env'), oldEnv());
});
afterEach(async () => {
  await fake.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(process.env.OY_CONFIG!, { force: true });
});
afterAll(() => console.log(`secret-bearing writes through oy run: ${cases} cases`));

function sessionsText(): string {
  const folder = path.join(process.env.XDG_STATE_HOME!, 'oy', 'sessions');
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function enqueueAttempts(): void {
  fake.enqueue(
    reply.toolCall('write', { path: '.env', content: 'DEBUG=0\n' }),
    reply.toolCall('edit', { path: '.env', old_string: 'DEBUG=1', new_string: 'DEBUG=0' }),
    reply.toolCall('replace', {
      path: '.env',
      pattern: 'DEBUG=1',
      replacement: 'DEBUG=0',
      mode: 'literal',
    }),
    reply.text('Done.'),
  );
}

describe('oy run and secret-bearing files', () => {
  it('refuses write, edit and replace of .env in auto mode, saying how to allow them', async () => {
    cases += 1;
    enqueueAttempts();
    const result = await runOy(['run', '--mode', 'auto', '--model', MODEL, 'set DEBUG=0'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, '.env'), 'utf8')).toBe(oldEnv());
    expect(result.stderr).toContain('denied by secret-bearing-file');
    const sentBack = fake.modelCalls.map((call) => call.rawBody).join('\n');
    expect(sentBack).toContain('add Write(.env) to ');
    for (const text of [sentBack, sessionsText(), result.stdout + result.stderr])
      expect(text).not.toContain(marker);
  });

  it('runs them with an allow rule, and shows only the new text', async () => {
    cases += 1;
    mkdirSync(path.dirname(process.env.OY_CONFIG!), { recursive: true });
    writeFileSync(
      process.env.OY_CONFIG!,
      JSON.stringify({ permissions: { allow: ['Write(.env)'] } }),
    );
    fake.enqueue(
      reply.toolCall('edit', { path: '.env', old_string: 'DEBUG=1', new_string: 'DEBUG=0' }),
      reply.toolCall('write', { path: '.env', content: 'DEBUG=2\n' }),
      reply.text('Done.'),
    );
    const result = await runOy(['run', '--mode', 'auto', '--model', MODEL, 'set DEBUG'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, '.env'), 'utf8')).toBe('DEBUG=2\n');
    const sentBack = fake.modelCalls.map((call) => call.rawBody).join('\n');
    expect(sentBack).toContain('existing content of .env hidden');
    for (const text of [sentBack, sessionsText(), result.stdout + result.stderr])
      expect(text).not.toContain(marker);
  });

  it('control: the same edit of a plain file sends its old line back', async () => {
    cases += 1;
    writeFileSync(path.join(workspace, 'notes.txt'), oldEnv());
    fake.enqueue(
      reply.toolCall('edit', { path: 'notes.txt', old_string: 'DEBUG=1', new_string: 'DEBUG=0' }),
      reply.text('Done.'),
    );
    const result = await runOy(['run', '--mode', 'auto', '--model', MODEL, 'set DEBUG'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(fake.modelCalls.map((call) => call.rawBody).join('\n')).toContain(marker);
  });
});
