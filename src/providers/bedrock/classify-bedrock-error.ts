import { quoteProviderMessage } from '../quote-provider-message.js';
import { needsInferenceProfile } from '../model-facts/model-facts-for.js';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import { parseRetryAfter } from '../retry/parse-retry-after.js';
import { displayUrl } from '../display-url.js';
import type { ModelRef } from '../types.js';

/** Bedrock's exception types (the SDK's error `name`), by what they mean for us. */
const KIND_BY_TYPE: Record<string, ProviderErrorKind> = {
  ThrottlingException: 'rate_limited',
  ServiceQuotaExceededException: 'rate_limited',
  AccessDeniedException: 'permission',
  ResourceNotFoundException: 'model_not_found',
  // Bedrock reports an over-long prompt as a plain ValidationException, told apart only by its message.
  ValidationException: 'bad_request',
  ConflictException: 'bad_request',
  ModelTimeoutException: 'timeout',
  InternalServerException: 'server',
  ModelErrorException: 'server',
  ModelStreamErrorException: 'server',
  ServiceUnavailableException: 'overloaded',
  ModelNotReadyException: 'overloaded',
  // The service rejecting the signature or key, and the SDK's credential chain failing before any request.
  UnrecognizedClientException: 'auth',
  InvalidSignatureException: 'auth',
  IncompleteSignatureException: 'auth',
  MissingAuthenticationTokenException: 'auth',
  ExpiredTokenException: 'auth',
  CredentialsProviderError: 'auth',
  TokenProviderError: 'auth',
  ProviderError: 'auth',
  // Node's timers in the SDK's HTTP handler.
  TimeoutError: 'timeout',
};

/** For service errors without a known type. */
const KIND_BY_STATUS: Record<number, ProviderErrorKind> = {
  400: 'bad_request',
  401: 'auth',
  403: 'permission',
  404: 'model_not_found',
  408: 'timeout',
  413: 'context_too_long',
  424: 'server',
  429: 'rate_limited',
  502: 'overloaded',
  503: 'overloaded',
  504: 'timeout',
};

/** Socket failures: the connection broke, or never formed. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

/** Service messages are kept for the user (they say which field was wrong), but never at any length. */

export interface BedrockErrorContext {
  /** Whether the caller aborted: then any failure is the abort. */
  isAborted: boolean;
  region: string;
  /** AWS_PROFILE, for the `aws sso login --profile` hint. */
  profile: string | undefined;
  /** AWS_ENDPOINT_URL_BEDROCK_RUNTIME when set: a 404 from it without Bedrock's error type names a missing route. */
  endpoint?: string | undefined;
}

/** What the SDK's errors carry that we read; nothing else (never credentials) leaves this function. */
interface SdkErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

/**
 * Any failure from the SDK, its credential chain or the socket as one classified ProviderError, by
 * exception type and status. Service messages are kept; credential-chain messages are not (they can
 * quote a profile's `credential_process` output), and no SDK object is attached as the cause.
 */
export function classifyBedrockError(
  error: unknown,
  ref: ModelRef,
  context: BedrockErrorContext,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (context.isAborted) return cancelled(ref);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorFields;
  const type = typeof fields.name === 'string' ? fields.name : 'Error';
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const status = fields.$metadata?.httpStatusCode;
  if (type === 'AbortError') return cancelled(ref);

  if (code !== undefined && CONNECTION_CODES.has(code)) {
    return new ProviderError('connection', ref, `the connection to Bedrock failed (${code})`, {
      hint: `check the network and the Bedrock endpoint for region ${context.region}`,
    });
  }
  // A 404 without one of Bedrock's own exception types came from something else at that address (a proxy,
  // a wrong endpoint override): the route is missing, which says nothing about the model.
  if (status === 404 && KIND_BY_TYPE[type] === undefined) {
    const where =
      context.endpoint === undefined ? 'the Bedrock endpoint' : displayUrl(context.endpoint);
    return new ProviderError(
      'bad_request',
      ref,
      `${where} has no Bedrock Converse route (HTTP 404, not a Bedrock error)`,
      {
        status,
        hint: 'check AWS_ENDPOINT_URL_BEDROCK_RUNTIME: it should be a Bedrock runtime endpoint (oy adds /model/<id>/converse)',
      },
    );
  }
  const kind = KIND_BY_TYPE[type] ?? (status === undefined ? undefined : statusKind(status));
  if (kind === undefined) {
    // Neither a service answer nor a socket error: the SDK could not read the reply (a corrupt frame).
    return new ProviderError(
      'server',
      ref,
      `Bedrock sent a reply the SDK could not read (${type})`,
      {
        hint: 'retry; if it keeps happening, run oy doctor --online',
      },
    );
  }
  const isService = status !== undefined;
  const detail = isService && kind !== 'auth' ? serviceMessage(fields.message) : '';
  const origin = isService ? ` (${type}, HTTP ${status})` : ` (${type})`;
  return new ProviderError(kind, ref, `${describeKind(kind)}${origin}${detail}`, {
    ...(status === undefined ? {} : { status }),
    ...(kind === 'rate_limited' ? retryAfter(fields) : {}),
    hint: hintFor(kind, ref, context),
  });
}

function cancelled(ref: ModelRef): ProviderError {
  return new ProviderError('aborted', ref, 'the Bedrock request was cancelled');
}

function statusKind(status: number): ProviderErrorKind | undefined {
  return KIND_BY_STATUS[status] ?? (status >= 500 ? 'server' : undefined);
}

function retryAfter(fields: SdkErrorFields): { retryAfterMs?: number } {
  const retryAfterMs = parseRetryAfter(fields.$response?.headers?.['retry-after']);
  return retryAfterMs === undefined ? {} : { retryAfterMs };
}

function serviceMessage(message: unknown): string {
  const text = quoteProviderMessage(message);
  return text === '' ? '' : `: ${text}`;
}

function describeKind(kind: ProviderErrorKind): string {
  switch (kind) {
    case 'auth':
      return 'AWS credentials are missing, expired or not accepted';
    case 'permission':
      return 'Bedrock denied access to the model';
    case 'model_not_found':
      return 'Bedrock does not know this model in this region';
    case 'rate_limited':
      return 'Bedrock is throttling requests';
    case 'overloaded':
      return 'Bedrock is unavailable or the model is not ready';
    case 'timeout':
      return 'the Bedrock request timed out';
    case 'context_too_long':
      return 'the request is too large for the model';
    case 'bad_request':
      return 'Bedrock rejected the request';
    default:
      return 'Bedrock failed';
  }
}

function hintFor(kind: ProviderErrorKind, ref: ModelRef, context: BedrockErrorContext): string {
  switch (kind) {
    case 'auth':
      return context.profile
        ? `run aws sso login --profile ${context.profile} (or check that profile's credentials), then oy doctor`
        : 'run aws sso login, or set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; oy doctor shows which are present';
    case 'permission':
      return `check that your IAM identity may call bedrock:InvokeModel and that access to ${ref.model} is enabled in ${context.region}`;
    case 'model_not_found':
      return `check the model id and region ${context.region}; newer models need an inference profile id (us.…, eu.…, global.…); oy model lists known ids`;
    case 'bad_request':
      // Known from the model's facts, not the message: this id has no on-demand throughput.
      if (needsInferenceProfile(ref))
        return `use the inference profile id us.${ref.model} (or eu., apac., global. for other geographies); oy model lists them`;
      return 'Bedrock names the rule the request broke above; run oy doctor --online to check the model settings';
    case 'context_too_long':
      return 'shorten the input or lower the output limit; run oy doctor to check the model settings';
    default:
      return 'retry later; oy retries this kind of failure by itself';
  }
}
