import type OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../provider-error.js';
import type { CallOptions, ModelRequest, StreamEvent } from '../types.js';
import { CallSignal } from './call-signal.js';
import { classifyOpenAiError, type OpenAiErrorContext } from './classify-openai-error.js';
import type { OpenAiSdk } from './load-openai-sdk.js';
import { readOpenAiStream } from './read-openai-stream.js';
import { toOpenAiRequest } from './to-openai-request.js';

export interface OpenAiConnection {
  sdk: OpenAiSdk;
  client: OpenAI;
}

export type OpenAiCallSetup = Omit<OpenAiErrorContext, 'call'>;

/** One streamed chat-completions call, every failure a ProviderError; the caller's signal aborts it at once. */
export async function* streamOpenAiChat(
  connect: () => Promise<OpenAiConnection>,
  setup: OpenAiCallSetup,
  request: ModelRequest,
  options: CallOptions,
): AsyncGenerator<StreamEvent> {
  // Mapping first: a request we cannot send (a PDF) fails before any network.
  const body = toOpenAiRequest(setup.ref, request);
  const { sdk, client } = await connect();
  const call = new CallSignal(options.signal, setup.timeoutMs);
  const context: OpenAiErrorContext = { ...setup, call };
  try {
    let chunks: AsyncIterable<ChatCompletionChunk>;
    try {
      chunks = await client.chat.completions.create(body, { signal: call.signal });
    } catch (error) {
      throw classifyOpenAiError(sdk, error, context) ?? error;
    }
    yield* readOpenAiStream(setup.ref, guardChunks(sdk, chunks, context));
  } finally {
    call.dispose();
  }
}

/** Passes chunks through, restarting the idle timeout on each, and turns transport failures into ProviderErrors. */
async function* guardChunks(
  sdk: OpenAiSdk,
  chunks: AsyncIterable<ChatCompletionChunk>,
  context: OpenAiErrorContext,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    for await (const chunk of chunks) {
      context.call.touch();
      yield chunk;
    }
  } catch (error) {
    throw classifyOpenAiError(sdk, error, context) ?? brokenStreamError(error, context);
  }
  // The SDK ends a stream quietly when its signal aborts: say why it stopped.
  if (context.call.signal.aborted) {
    throw classifyOpenAiError(sdk, undefined, context) ?? brokenStreamError(undefined, context);
  }
}

/** Only errors raised while reading the response body get here: a malformed event or a broken connection. */
function brokenStreamError(error: unknown, { ref }: OpenAiErrorContext): ProviderError {
  if (error instanceof SyntaxError) {
    return new ProviderError(
      'server',
      ref,
      'the server sent a stream event that is not valid JSON',
      {
        hint: 'a retry usually helps; if it persists, the endpoint is not fully OpenAI-compatible',
      },
    );
  }
  const name = error instanceof Error ? error.name : typeof error;
  return new ProviderError('connection', ref, 'the connection broke mid-answer', {
    hint: 'try again',
    cause: { name },
  });
}
