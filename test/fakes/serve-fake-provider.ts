/**
 * The fake provider as a standalone process, for end-to-end tests, benchmarks and people debugging:
 *   npx tsx test/fakes/serve-fake-provider.ts --script replies.json --port 8787 [--log requests.jsonl] [--models a,b]
 * Prints `listening http://127.0.0.1:<port>` on stdout; on SIGTERM or SIGINT prints a summary on stderr
 * and exits 1 when a call was unexpected or a scripted reply went unused. See test/fakes/README.md.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { RecordedRequest } from './fake-provider-server.js';
import type { ScriptedReply } from './script.js';
import { startFakeProvider } from './start-fake-provider.js';

/** Headers that carry credentials: the log says they were sent, never what they held. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'x-amz-security-token']);

const { values } = parseArgs({
  options: {
    script: { type: 'string' },
    port: { type: 'string', default: '0' },
    log: { type: 'string' },
    models: { type: 'string' },
  },
  strict: true,
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  fail(`--port must be a whole number from 0 to 65535, got \`${values.port}\``);
}
const fileContent = values.script === undefined ? { script: [] } : readScriptFile(values.script);
const models = values.models?.split(',').filter(Boolean) ?? fileContent.models ?? [];
const logFile = values.log;

const fake = await startFakeProvider({
  script: fileContent.script,
  models,
  port,
  onRequest: (request) => {
    if (logFile) appendFileSync(logFile, JSON.stringify(redactRequest(request)) + '\n');
  },
});
process.stdout.write(`listening ${fake.url}\n`);

let isStopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (isStopping) return;
    isStopping = true;
    void stop();
  });
}

async function stop(): Promise<void> {
  await fake.close();
  const problems = [
    ...fake.unexpected.map((why) => `unexpected call: ${why}`),
    ...(fake.pending > 0 ? [`${fake.pending} scripted replies were never requested`] : []),
  ];
  process.stderr.write(
    `fake provider: ${fake.requests.length} requests, ${fake.modelCalls.length} model calls\n` +
      problems.map((line) => `fake provider: ${line}\n`).join(''),
  );
  process.exit(problems.length > 0 ? 1 : 0);
}

/** A script file is a JSON array of replies, or `{ "script": [...], "models": [...] }`. */
function readScriptFile(file: string): { script: ScriptedReply[]; models?: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`cannot read script ${file}: ${(error as Error).message}`);
  }
  const record = Array.isArray(parsed) ? { script: parsed } : (parsed as Record<string, unknown>);
  const script = record?.script;
  if (!Array.isArray(script))
    fail(`script ${file} must be an array of replies or { "script": [...] }`);
  script.forEach((reply: unknown, index) => {
    const kind = (reply as { kind?: unknown } | null)?.kind;
    if (kind !== 'answer' && kind !== 'error') {
      fail(`script ${file}: reply ${index} needs "kind": "answer" or "error"`);
    }
  });
  const models = record.models;
  return {
    script: script as ScriptedReply[],
    ...(Array.isArray(models) ? { models: models.map(String) } : {}),
  };
}

function redactRequest(request: RecordedRequest): RecordedRequest {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.has(name.toLowerCase()) ? '<redacted>' : value,
    ]),
  );
  return { ...request, headers };
}

function fail(message: string): never {
  process.stderr.write(`serve-fake-provider: ${message}\n`);
  process.exit(2);
}
