import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../provider-error.js';
import { type BedrockSettings, DEFAULT_REQUEST_TIMEOUT_MS } from '../provider-settings.js';
import type {
  CallOptions,
  ModelClient,
  ModelRef,
  ModelRequest,
  ModelResult,
  StreamEvent,
} from '../types.js';
import { modelFactsFor } from '../model-facts/model-facts-for.js';
import { classifyBedrockError } from './classify-bedrock-error.js';
import { readConverseOutput } from './read-converse-output.js';
import { readConverseStream } from './read-converse-stream.js';
import { toConverseInput } from './to-converse-input.js';

type BedrockSdk = typeof import('@aws-sdk/client-bedrock-runtime');

/**
 * A Bedrock Converse client. The SDK loads on first use; credentials come from its default chain (env,
 * profile, SSO, instance role) and are never read or logged here. The SDK never retries: the shared
 * retry wrapper does, by the ProviderError kind.
 */
export function createBedrockClient(ref: ModelRef, settings: BedrockSettings): ModelClient {
  let connection: Promise<{ sdk: BedrockSdk; client: BedrockRuntimeClient }> | undefined;
  const connect = () => (connection ??= openClient(ref, settings));
  const classify = (error: unknown, signal: AbortSignal | undefined) =>
    classifyBedrockError(error, ref, {
      isAborted: signal?.aborted === true,
      region: settings.region,
      profile: settings.profile,
      endpoint: settings.endpoint,
    });

  const complete = async (
    request: ModelRequest,
    options: CallOptions = {},
  ): Promise<ModelResult> => {
    try {
      const { sdk, client } = await connect();
      const command = new sdk.ConverseCommand(toConverseInput(ref, request));
      const output = await client.send(
        command,
        options.signal ? { abortSignal: options.signal } : {},
      );
      return readConverseOutput(output, ref);
    } catch (error) {
      throw classify(error, options.signal);
    }
  };

  return {
    ref,
    async *stream(request: ModelRequest, options: CallOptions = {}): AsyncIterable<StreamEvent> {
      // Our own controller also ends the HTTP response when the consumer stops reading early.
      const controller = new AbortController();
      const forwardAbort = () => controller.abort(options.signal?.reason);
      options.signal?.addEventListener('abort', forwardAbort, { once: true });
      if (options.signal?.aborted) forwardAbort();
      let isFinished = false;
      try {
        // Without streaming tool use, a request offering tools goes through Converse, replayed as events.
        if ((request.tools?.length ?? 0) > 0 && !modelFactsFor(ref).streamingToolUse) {
          const result = await complete(request, { signal: controller.signal });
          yield* replayResult(result);
          isFinished = true;
          return;
        }
        const { sdk, client } = await connect();
        const command = new sdk.ConverseStreamCommand(toConverseInput(ref, request));
        const response = await client.send(command, { abortSignal: controller.signal });
        if (!response.stream) {
          throw new ProviderError('server', ref, 'the Bedrock stream response had no event stream');
        }
        for await (const event of readConverseStream(response.stream, ref)) {
          yield event;
          // A consumer that aborted while handling this event gets no more, not even buffered ones.
          options.signal?.throwIfAborted();
        }
        isFinished = true;
      } catch (error) {
        throw classify(error, options.signal);
      } finally {
        options.signal?.removeEventListener('abort', forwardAbort);
        if (!isFinished) controller.abort();
      }
    },

    complete,
  };
}

/** A whole answer as the events a stream would have carried. */
function* replayResult(result: ModelResult): Generator<StreamEvent> {
  for (const part of result.thinking ?? []) yield { type: 'thinking', part };
  if (result.text !== '') yield { type: 'text_delta', text: result.text };
  for (const call of result.toolCalls) yield { type: 'tool_call', call };
  yield { type: 'usage', usage: result.usage };
  yield { type: 'stop', reason: result.stopReason };
}

async function openClient(
  ref: ModelRef,
  settings: BedrockSettings,
): Promise<{ sdk: BedrockSdk; client: BedrockRuntimeClient }> {
  if (settings.region.trim() === '') {
    throw new ProviderError('bad_request', ref, 'no AWS region is set for Bedrock', {
      hint: 'set BEDROCK_REGION or AWS_REGION (for example us-east-1)',
    });
  }
  const [sdk, { NodeHttpHandler }] = await Promise.all([
    import('@aws-sdk/client-bedrock-runtime'),
    import('@smithy/node-http-handler'),
  ]);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const client = new sdk.BedrockRuntimeClient({
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    ...(settings.profile === undefined ? {} : { profile: settings.profile }),
    maxAttempts: 1,
    // HTTP/1.1, not the SDK's HTTP/2 default: endpoint overrides (proxies, the fake) may lack HTTP/2.
    requestHandler: new NodeHttpHandler({
      requestTimeout: timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: timeoutMs,
    }),
  });
  return { sdk, client };
}
