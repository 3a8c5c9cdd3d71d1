import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadedSession } from '../../../src/agent/session/session-store.js';
import { AgentSession } from '../../../src/agent/agent-session.js';
import { ChatSession } from '../../../src/cli/chat/chat-session.js';
import type {
  EditorKey,
  LineEditor,
  ReadResult,
} from '../../../src/cli/chat/line-editor/create-line-editor.js';
import { runChat } from '../../../src/cli/chat/run-chat.js';
import { createColors } from '../../../src/cli/terminal.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import type { ModelRef } from '../../../src/providers/types.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { createModelClient } from '../../../src/providers/create-model-client.js';
import { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import type { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { fakeProviderEnv } from '../../fakes/start-fake-provider.js';

export const MODEL = 'anthropic::claude-haiku-4-5';

/** One scripted step: a line typed at the prompt, an answer at an approval, Ctrl-C or Ctrl-D or a key (Shift+Tab, Ctrl-T) at the prompt. */
export type Step =
  | { read: string }
  | { ask: string | null }
  | { interrupt: true }
  | { eof: true }
  | { key: EditorKey };

export const say = (read: string): Step => ({ read });
export const answer = (ask: string | null): Step => ({ ask });

/**
 * A strict LineEditor double: each read() and ask() takes the next step, which must be of its kind
 * (an unexpected approval question fails the test); after the last step, read() is end of input.
 */
export class ScriptedEditor implements LineEditor {
  readonly questions: string[] = [];
  readonly prompts: string[] = [];
  readonly errors: string[] = [];
  private readonly handlers = new Set<() => void>();
  private readonly keyHandlers = new Set<(key: EditorKey) => void>();
  isClosed = false;

  constructor(private readonly steps: Step[]) {}

  async read(prompt: string): Promise<ReadResult> {
    this.prompts.push(prompt);
    const step = this.steps.shift();
    if (step === undefined || 'eof' in step) return { kind: 'eof' };
    if ('interrupt' in step) return { kind: 'interrupt' };
    if ('key' in step) return { kind: 'key', key: step.key };
    if ('read' in step) return { kind: 'submit', text: step.read };
    return this.fail(`read() at the prompt, but the script expected an answer (${step.ask})`, {
      kind: 'eof',
    });
  }

  async ask(question: string): Promise<string | null> {
    this.questions.push(question);
    const step = this.steps.shift();
    if (step !== undefined && 'ask' in step) return step.ask;
    return this.fail(`an unexpected question: ${question}`, null);
  }

  onInterrupt(handler: () => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Ctrl-C while a turn runs. */
  interrupt(): void {
    for (const handler of this.handlers) handler();
  }

  onKey(handler: (key: EditorKey) => void): () => void {
    this.keyHandlers.add(handler);
    return () => this.keyHandlers.delete(handler);
  }

  /** A key (Ctrl-T) while a turn runs. */
  pressKey(key: EditorKey): void {
    for (const handler of this.keyHandlers) handler(key);
  }

  get listeners(): number {
    return this.handlers.size;
  }

  close(): void {
    this.isClosed = true;
  }

  get remainingSteps(): number {
    return this.steps.length;
  }

  private fail<T>(message: string, value: T): T {
    this.errors.push(message);
    this.steps.length = 0;
    return value;
  }
}

/** A stream that keeps what is written (not a terminal). */
export class Capture {
  text = '';
  isTTY = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export interface ChatRun {
  chat: ChatSession;
  editor: ScriptedEditor;
  stdout: Capture;
  stderr: Capture;
}

export function makeWorkspace(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-chat-')));
}

/**
 * A chat session in `root`, with its own state directory, against the scripted model (chat tests) or
 * the HTTP fake (provider tests that need the real SDKs and wire).
 */
export async function createChat(
  fake: ScriptedModelClient | FakeProviderServer,
  root: string,
  steps: Step[],
  options: {
    mode?: SafetyMode;
    stateDir?: string;
    permissions?: { allow?: string[]; deny?: string[] };
    /** A session to continue, as `oy chat -c` loads it. */
    loaded?: LoadedSession;
  } = {},
): Promise<ChatRun> {
  const isHttp = fake instanceof FakeProviderServer;
  const env = { ...(isHttp ? fakeProviderEnv(fake) : {}), PATH: process.env.PATH ?? '' };
  const redactor = createRedactor();
  const editor = new ScriptedEditor(steps);
  const stdout = new Capture();
  const stderr = new Capture();
  const createClient = async (ref: ModelRef) =>
    fake instanceof FakeProviderServer
      ? createModelClient(ref, env, { retry: { baseDelayMs: 1, maxDelayMs: 5 } })
      : fake.asModel(ref);
  const chat = new ChatSession({
    agent: new AgentSession({
      workspaceRoot: root,
      stateDir: options.stateDir ?? path.join(root, '..', `${path.basename(root)}-state`),
      env,
      client: await createClient(parseModelId(MODEL)),
      mode: options.mode ?? 'ask',
      permissions: {
        allow: options.permissions?.allow ?? [],
        ask: [],
        deny: options.permissions?.deny ?? [],
      },
      agent: { sandbox: 'off', allowEnv: [], network: false, contextWindow: null },
      instructions: [],
      redact: (text) => redactor.redact(text).text,
      oyVersion: 'test',
      today: '2025-01-01',
      ...(options.loaded ? { loaded: options.loaded } : {}),
    }),
    createClient,
    editor,
    output: {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WritableStream,
      colors: createColors(false),
      answerColors: createColors(false),
      isMarkdown: false,
    },
  });
  return { chat, editor, stdout, stderr };
}

/** Runs the chat until its script ends; the editor must not have seen an unexpected call. */
export async function runScript(run: ChatRun): Promise<void> {
  await run.chat.agent.start();
  try {
    await runChat(run.chat, run.editor);
  } finally {
    await run.chat.agent.dispose();
  }
  if (run.editor.errors.length > 0) throw new Error(run.editor.errors.join('\n'));
}

/** The tool names a recorded Anthropic request offered. */
export function offeredToolNames(body: unknown): string[] {
  const tools = (body as { tools?: { name: string }[] }).tools ?? [];
  return tools.map((tool) => tool.name);
}

/** The user texts of a recorded Anthropic request, in order. */
export function userTexts(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : (message.content as { type: string; text?: string }[])
            .filter((block) => block.type === 'text')
            .map((block) => block.text ?? ''),
    );
}
