/** What each client needs to connect, resolved from config and environment by the caller (never read here). */

export interface AnthropicSettings {
  apiKey: string;
  /** ANTHROPIC_BASE_URL, or undefined for the SDK default. */
  baseURL?: string;
  /** Per-request timeout. */
  timeoutMs?: number;
}

export interface OpenAiSettings {
  apiKey: string;
  /** Always set: OPENAI_BASE_URL / the default for openai::, `http://127.0.0.1:<port>/v1` for local, Ollama's, OpenRouter's. */
  baseURL: string;
  timeoutMs?: number;
}

export interface BedrockSettings {
  /** BEDROCK_REGION > AWS_REGION > AWS_DEFAULT_REGION. */
  region: string;
  /** AWS_ENDPOINT_URL_BEDROCK_RUNTIME, or undefined for the regional endpoint. */
  endpoint?: string;
  /** AWS_PROFILE, for the SSO hint in error messages; credentials come from the SDK's default chain. */
  profile?: string;
  timeoutMs?: number;
}

/** Five minutes: a long streamed answer is still well inside it, a hung connection is not. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;
