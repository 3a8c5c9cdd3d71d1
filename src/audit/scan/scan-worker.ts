import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { createRedactor } from '../../safety/redact/redactor.js';
import { needsLineTokens } from '../chunk/plan-chunks.js';
import { indexFile } from '../hints/index-file.js';
import { createTokenCounter, type TokenCounter } from '../tokens/count-tokens.js';
import { scopeFile } from '../scope/audit-scope.js';
import type { ScanReply, ScanRequest, ScanSettings } from './scan-pool.js';
import { RedactionFailed, scanText, type ScanTools } from './scan-text.js';

/** A scan worker thread: the same scanText, tools and tokenizer as the main thread, on another core. */
const settings = workerData as ScanSettings & {
  /** The pool reads replies here, also synchronously between its own scans. */
  replies: MessagePort;
};
const { exactScope } = settings;
let counter: TokenCounter | undefined;
const tools: ScanTools = {
  redact: (text) => createRedactor().redact(text),
  indexFile,
  counter: () => (counter ??= createTokenCounter(settings.encoding)),
  needsLineTokens: (path, tokens) => needsLineTokens(path, tokens, settings.budgetTokens),
  ...(exactScope === undefined
    ? {}
    : { needsExactTokens: (path: string) => scopeFile(path, exactScope).scope === 'model' }),
};

parentPort?.on('message', (request: ScanRequest) => {
  let reply: ScanReply;
  try {
    reply = { id: request.id, scanned: scanText(request.file, tools) };
  } catch (error) {
    reply = {
      id: request.id,
      failure: {
        reason: error instanceof RedactionFailed ? 'redaction' : 'scan',
        message: (error as Error).message,
      },
    };
  }
  settings.replies.postMessage(reply);
});
