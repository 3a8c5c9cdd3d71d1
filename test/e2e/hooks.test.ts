import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';
import { createSecretFactory } from '../support/secret-factory.js';

/** User hooks end to end: the built CLI against the fake provider, hooks as real commands. */
const MODEL = 'anthropic::claude-haiku-4-5';

let fake: FakeProviderServer;
let cases = 0;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
  console.log(`hooks e2e: ${cases} cases`);
});

// Under /var/tmp: hooks run sandboxed, and the sandbox's private /tmp would hide a file under /tmp.
function makeDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join('/var/tmp', prefix)));
}

/** Where a hook may write: the workspace (the rest of the file system is read-only to it). */
function hookOutput(workspace: string): string {
  const dir = path.join(workspace, '.hook-output');
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function runWith(
  workspace: string,
  config: object,
  args: string[],
  env: Record<string, string> = {},
) {
  const configFile = path.join(makeDir('oy-hooks-config-'), 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const first = fake.modelCalls.length;
  const result = await runOy(['run', '--json', '--no-session', '--model', MODEL, ...args], {
    cwd: workspace,
    env: { ...fakeProviderEnv(fake), OY_CONFIG: configFile, ...env },
  });
  const events = result.stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AgentEvent);
  return {
    ...result,
    events,
    calls: fake.modelCalls.slice(first).map((c) => JSON.stringify(c.body)),
  };
}

describe('hooks', () => {
  it('blocks, sees results, cuts a hanging hook, feeds a Stop hook back, and ignores project hooks', async () => {
    cases += 1;
    const workspace = makeDir('oy-hooks-ws-');
    const outside = makeDir('oy-hooks-out-');
    const reason = `no shell for that ${randomBytes(4).toString('hex')}`;
    // Blocks a bash call whose command mentions BLOCKED; lets the others run (the control).
    const preScript = path.join(outside, 'pre.mjs');
    writeFileSync(
      preScript,
      `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const e=JSON.parse(s);` +
        `if(String(e.tool_input.command).includes('BLOCKED')){process.stderr.write(${JSON.stringify(reason)});process.exit(2)}})`,
    );
    const postLog = path.join(hookOutput(workspace), 'post.jsonl');
    const stopMark = path.join(hookOutput(workspace), 'stopped-once');
    const projectCanary = path.join(outside, 'PROJECT_HOOK_RAN');
    mkdirSync(path.join(workspace, '.oy'));
    const projectHook = [{ command: `touch ${projectCanary}` }];
    writeFileSync(
      path.join(workspace, '.oy', 'config.json'),
      JSON.stringify({
        hooks: { PreToolUse: projectHook, PostToolUse: projectHook, Stop: projectHook },
      }),
    );
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          { name: 'bash', arguments: { command: 'touch BLOCKED' } },
          { name: 'bash', arguments: { command: 'touch ALLOWED' } },
          { name: 'list', arguments: { path: '.' } },
        ],
      },
      reply.text('done'),
      reply.text('really done'),
    );
    const run = await runWith(
      workspace,
      {
        hooks: {
          PreToolUse: [
            { matcher: 'bash', command: `node ${preScript}` },
            { matcher: 'list', command: 'sleep 30', timeout: 1 },
          ],
          PostToolUse: [
            { matcher: 'bash|write', command: `cat >> ${postLog}; echo >> ${postLog}` },
          ],
          Stop: [
            {
              command: `if [ -e ${stopMark} ]; then exit 0; fi; touch ${stopMark}; echo "run the tests first" >&2; exit 2`,
            },
          ],
        },
      },
      ['--mode', 'auto', 'go'],
    );
    expect(run.code, run.stderr).toBe(0);
    // PreToolUse exit 2: the command did not run, and the model reads the reason.
    expect(existsSync(path.join(workspace, 'BLOCKED'))).toBe(false);
    expect(existsSync(path.join(workspace, 'ALLOWED'))).toBe(true);
    expect(run.calls[1]).toContain(reason);
    // PostToolUse saw the event and the result of the bash call that ran.
    const post = readFileSync(postLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(post).toHaveLength(1);
    expect(post[0]).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'bash',
      mode: 'auto',
    });
    expect(post[0].tool_response).toContain('"exit_code":0');
    // The hanging hook was stopped, reported, and the list call still ran.
    const warnings = run.events.filter((event) => event.type === 'error');
    expect(JSON.stringify(warnings)).toContain('was stopped after 1 s');
    const list = run.events.find((event) => event.type === 'tool_result' && event.tool === 'list');
    expect(list).toMatchObject({ ok: true });
    // The Stop hook sent its feedback, and the model answered again.
    expect(run.calls).toHaveLength(3);
    expect(run.calls[2]).toContain('[Stop hook] run the tests first');
    expect(run.events.at(-1)).toMatchObject({ type: 'done', answer: 'really done' });
    // The repository's hooks ran nothing.
    expect(existsSync(projectCanary)).toBe(false);
    expect(run.stderr).toContain('"hooks" ignored');
  });

  it('a UserPromptSubmit hook that exits 2 stops the prompt before any model call', async () => {
    cases += 1;
    const workspace = makeDir('oy-hooks-ws-');
    const run = await runWith(
      workspace,
      { hooks: { UserPromptSubmit: [{ command: 'echo "not in this repo" >&2; exit 2' }] } },
      ['--mode', 'auto', 'go'],
    );
    expect(run.calls).toHaveLength(0);
    expect(run.events.at(-1)).toMatchObject({ type: 'done', stopReason: 'cancelled' });
    expect(JSON.stringify(run.events)).toContain('not in this repo');
    fake.assertDone();
  });

  it('redacts what a hook says before the model or the terminal sees it', async () => {
    cases += 1;
    const workspace = makeDir('oy-hooks-ws-');
    const outside = makeDir('oy-hooks-out-');
    const secrets = createSecretFactory(randomInt(1, 2 ** 31));
    const blocked = secrets.githubToken('p');
    const feedback = secrets.awsAccessKeyId();
    const failing = secrets.npmToken();
    // The hooks read their secrets from files: nothing secret is in the config or on a command line.
    const say = (name: string, value: string, code: number) => {
      const file = path.join(outside, name);
      writeFileSync(file, `the key is ${value}\n`);
      return `cat ${file} >&2; exit ${code}`;
    };
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [
          { name: 'bash', arguments: { command: 'touch BLOCKED' } },
          { name: 'list', arguments: { path: '.' } },
        ],
      },
      reply.text('done'),
    );
    const run = await runWith(
      workspace,
      {
        hooks: {
          PreToolUse: [
            { matcher: 'bash', command: say('blocked', blocked, 2) },
            { matcher: 'list', command: say('failing', failing, 1) },
          ],
          PostToolUse: [{ matcher: 'list', command: say('feedback', feedback, 2) }],
        },
      },
      ['--mode', 'auto', 'go'],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path.join(workspace, 'BLOCKED'))).toBe(false);
    // Each hook's words arrived (the control: they were not dropped), with the secrets replaced.
    expect(run.calls[1]).toMatch(/blocked by a PreToolUse hook: the key is \[REDACTED/);
    expect(run.calls[1]).toMatch(/feedback from a PostToolUse hook: the key is \[REDACTED/);
    expect(JSON.stringify(run.events)).toMatch(/exited 1: the key is \[REDACTED/);
    for (const secret of [blocked, feedback, failing]) {
      expect(run.calls.join('\n')).not.toContain(secret);
      expect(run.stdout + run.stderr).not.toContain(secret);
    }
  });

  it('hands hostile tool input to a hook on stdin only: nothing in it runs', async () => {
    cases += 1;
    const workspace = makeDir('oy-hooks-ws-');
    const outside = makeDir('oy-hooks-out-');
    const log = path.join(hookOutput(workspace), 'events.jsonl');
    const tag = randomBytes(4).toString('hex');
    const hostile = (dir: string) =>
      `x$(touch ${dir}/SUBST_${tag})\`touch ${dir}/BACKTICK_${tag}\`;touch ${dir}/SEMI_${tag} #'"`;
    const canaries = (dir: string) =>
      ['SUBST', 'BACKTICK', 'SEMI'].map((name) => path.join(dir, `${name}_${tag}`));
    // Control: the same text given to a shell fires every canary.
    const control = makeDir('oy-hooks-control-');
    execFileSync('bash', ['-c', `echo ${hostile(control)}`], { stdio: 'ignore' });
    expect(canaries(control).filter((file) => existsSync(file))).toHaveLength(3);

    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'read', arguments: { path: hostile(outside) } }],
      },
      reply.text('done'),
    );
    const hook = { matcher: '.*', command: `cat >> ${log}; echo >> ${log}` };
    const run = await runWith(workspace, { hooks: { PreToolUse: [hook], PostToolUse: [hook] } }, [
      '--mode',
      'auto',
      'go',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(canaries(outside).filter((file) => existsSync(file))).toEqual([]);
    expect(canaries(workspace).filter((file) => existsSync(file))).toEqual([]);
    const events = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool_input: { path: string } });
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.tool_input.path)).toEqual([
      hostile(outside),
      hostile(outside),
    ]);
  });

  it('runs hooks in the workspace with the core environment and what agent.allowEnv names', async () => {
    cases += 1;
    const workspace = makeDir('oy-hooks-ws-');
    const log = path.join(hookOutput(workspace), 'env.txt');
    const secret = `hooksecret${randomBytes(6).toString('hex')}`;
    const visible = `visible${randomBytes(4).toString('hex')}`;
    fake.enqueue(reply.text('hello'));
    const run = await runWith(
      workspace,
      {
        hooks: {
          UserPromptSubmit: [
            { command: `pwd > ${log}; echo "token=$DEPLOY_TOKEN setting=$HOOK_SETTING" >> ${log}` },
          ],
        },
        agent: { allowEnv: ['HOOK_SETTING'] },
      },
      ['--mode', 'auto', 'go'],
      { DEPLOY_TOKEN: secret, HOOK_SETTING: visible },
    );
    expect(run.code, run.stderr).toBe(0);
    const [cwd, line] = readFileSync(log, 'utf8').trim().split('\n');
    expect(cwd).toBe(workspace);
    // The credential is gone; the variable the user allows by name arrives (the control).
    expect(line).toBe(`token= setting=${visible}`);
  });
});
