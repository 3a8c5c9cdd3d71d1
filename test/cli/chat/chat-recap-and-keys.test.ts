import { beforeEach, describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/agent/session/session-store.js';
import { AUTO_MODE_QUESTION } from '../../../src/cli/chat/switch-mode.js';
import { reply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { answer, createChat, makeWorkspace, runScript, say, type Step } from './chat-harness.js';

let fake: ScriptedModelClient;
let root: string;

beforeEach(() => {
  fake = new ScriptedModelClient();
  root = makeWorkspace();
});

const SEQ_LINES = 30;

/** Four exchanges: a plain answer, a long command, a refused write, a last question. */
async function recordSession() {
  fake.enqueue(
    reply.text('The first answer.'),
    reply.toolCall('bash', { command: `seq 1 ${SEQ_LINES}` }),
    reply.text('Counted.'),
    reply.toolCall('write', { path: 'notes.txt', content: 'x\n' }),
    reply.text('You said no.'),
    reply.text('Last answer.'),
  );
  const first = await createChat(
    fake,
    root,
    [
      say('first question'),
      say('count to thirty'),
      say('write the notes'),
      answer('n'),
      say('one more\nwith a second line'),
    ],
    { permissions: { allow: ['Bash(seq:*)'] } },
  );
  await runScript(first);
  return { stateDir: first.chat.agent.options.stateDir, id: first.chat.agent.session!.id };
}

describe('resuming shows a recap', () => {
  it('the last exchanges as they were: prompts, answers, calls and how they ended, long output folded', async () => {
    const { stateDir, id } = await recordSession();
    const loaded = await loadSession(stateDir, root, 'latest');
    const second = await createChat(fake, root, [], { stateDir, loaded });
    await runScript(second);
    const stderr = second.stderr.text;
    expect(stderr).toContain(
      `── recap of session ${id}: the last 3 of 4 exchanges (oy sessions show ${id} has them all)\n`,
    );
    expect(stderr).not.toContain('first question');
    expect(second.stdout.text).not.toContain('The first answer.');
    expect(stderr).toContain('oy> count to thirty\n• bash seq 1 30 ok\n');
    expect(stderr).toContain(`│ … ${SEQ_LINES - 8} more lines (/output shows them all)`);
    expect(stderr).toContain('oy> write the notes\n• write notes.txt denied by you\n');
    expect(stderr).toContain('oy> one more\n... with a second line\n');
    expect(second.stdout.text).toBe('Counted.\nYou said no.\nLast answer.\n');
    // No duration: the recap knows none, and says none.
    expect(stderr).not.toMatch(/ \d+ ms\n/u);
    // The status line follows the recap, and the exit names the same session.
    expect(stderr).toMatch(
      /with a second line\nanthropic::claude-haiku-4-5 · mode ask · context \d+ tokens/u,
    );
    expect(stderr).toContain(`resume it with: oy chat --resume ${id}\n`);
    const normalised = stderr
      .replaceAll(id, '<id>')
      .replace(/context \d+ tokens/u, 'context N tokens');
    expect(normalised).toMatchSnapshot();
  });

  it('/load shows the recap of the session it switches to', async () => {
    const { stateDir, id } = await recordSession();
    const second = await createChat(fake, root, [say(`/load ${id}`)], { stateDir });
    await runScript(second);
    expect(second.stderr.text).toContain(
      `loaded session ${id}: 4 turns\n── recap of session ${id}`,
    );
    expect(second.stderr.text).toContain('oy> one more\n');
  });

  it('a hostile prompt, answer and tool call in the session are shown inertly', async () => {
    fake.enqueue(
      reply.toolCall('list', { path: '\x1b[2J\x1b]0;pwned\x07' }),
      reply.text('done \x1b]52;c;Y2FuYXJ5\x07 \x1b[31mred'),
    );
    const first = await createChat(fake, root, [say('look \x1b]52;c;Zm9v\x07 here')]);
    await runScript(first);
    const loaded = await loadSession(first.chat.agent.options.stateDir, root, 'latest');
    const second = await createChat(fake, root, [], {
      stateDir: first.chat.agent.options.stateDir,
      loaded,
    });
    await runScript(second);
    expect(second.stderr.text).toContain('oy> look ^[]52;c;Zm9v^G here\n');
    // The call's summary marks the invisible runs it shows (reverse video around them).
    expect(second.stderr.text).toMatch(/• list .*\^\[\[2J.*\^\[\]0;pwned\^G.* failed/);
    expect(second.stdout.text).toContain('done ^[]52;c;Y2FuYXJ5^G ^[[31mred');
    for (const written of [second.stderr.text, second.stdout.text])
      expect(written).not.toContain('\x1b');
  });
});

describe('keys at the prompt', () => {
  const shiftTab: Step = { key: 'cycle-mode' };
  const ctrlT: Step = { key: 'toggle-thinking' };

  it('Shift+Tab cycles plan, ask, edit; auto only after a yes, else on to plan', async () => {
    const run = await createChat(fake, root, [
      shiftTab, // ask -> edit
      shiftTab, // edit -> auto? no -> plan
      answer('n'),
      shiftTab, // plan -> ask
      shiftTab, // ask -> edit
      shiftTab, // edit -> auto? yes
      answer('y'),
      shiftTab, // auto -> plan
    ]);
    const modes: string[] = [];
    const original = run.editor.read.bind(run.editor);
    run.editor.read = async (prompt) => {
      modes.push(run.chat.agent.mode);
      return original(prompt);
    };
    await runScript(run);
    expect(modes).toEqual(['ask', 'edit', 'plan', 'ask', 'edit', 'auto', 'plan']);
    expect(run.editor.questions).toEqual([AUTO_MODE_QUESTION, AUTO_MODE_QUESTION]);
    expect(run.stderr.text).toContain('mode edit for the next turns (Shift+Tab: auto next)\n');
    expect(run.stderr.text).toContain('mode plan for the next turns (Shift+Tab: ask next)\n');
    expect(run.stderr.text).toContain('mode auto for the next turns (Shift+Tab: plan next)\n');
  });

  it('Ctrl-T and /thinking hide and show thinking; a hidden block shows its label only', async () => {
    fake.enqueue(reply.thinkingText('private reasoning', 'Visible answer.'));
    const run = await createChat(fake, root, [
      ctrlT,
      say('think'),
      ctrlT,
      say('/thinking off'),
      say('/thinking maybe'),
    ]);
    await runScript(run);
    const stderr = run.stderr.text;
    expect(stderr).toContain('thinking hidden (Ctrl-T or /thinking on shows it)\n');
    expect(stderr).toContain('✻ thinking (hidden; Ctrl-T shows it)\n');
    expect(stderr).not.toContain('private reasoning');
    expect(stderr).toContain('thinking shown (Ctrl-T or /thinking off hides it)\n');
    expect(run.chat.display.showsThinking).toBe(false);
    expect(stderr).toContain('error: /thinking takes on or off, got "maybe"\n');
    expect(run.stdout.text).toBe('Visible answer.\n');
  });

  it('Ctrl-T while a turn streams switches thinking off for the rest of it', async () => {
    fake.enqueue({
      kind: 'answer',
      thinking: [{ text: 'early part. later secret part' }],
      text: 'Answer.',
    });
    const run = await createChat(fake, root, [say('think')]);
    const write = run.stderr.write.bind(run.stderr);
    run.stderr.write = (chunk: string) => {
      const written = write(chunk);
      // The first thinking text is on screen: the person presses Ctrl-T.
      if (chunk.includes('early part')) run.editor.pressKey('toggle-thinking');
      return written;
    };
    await runScript(run);
    expect(run.chat.display.showsThinking).toBe(false);
    expect(run.stderr.text).toContain('✻ thinking\n');
  });
});
