import { z } from 'zod';
import {
  checkUrl,
  guardedFetch,
  htmlToMarkdown,
  MAX_FETCH_BYTES,
  type AllowAddressForTests,
  type LookupAll,
  type RedactText,
  ConversionStopped,
} from '../../safety/network/index.js';
import { dropPartialTokenAtEnd } from '../../safety/redact/index.js';
import { defineTool } from './define-tool.js';
import { ToolFailure, type AgentTool, type ToolContext } from './tool-types.js';

/** README.md "Tools": the default and longest deadline for one fetch, redirects included. */
export const DEFAULT_FETCH_TIMEOUT_SECONDS = 60;
export const MAX_FETCH_TIMEOUT_SECONDS = 120;
/** Least time HTML conversion gets when the fetch used most of the deadline. */
const MIN_CONVERSION_MS = 1000;

const schema = z
  .object({
    url: z.string().min(1).describe('Absolute http:// or https:// URL on the public internet.'),
    method: z.enum(['GET', 'HEAD']).default('GET').describe('GET (default) or HEAD.'),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('Extra request headers; authorization, cookie, host and similar are refused.'),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_FETCH_TIMEOUT_SECONDS)
      .default(DEFAULT_FETCH_TIMEOUT_SECONDS)
      .describe(
        `Deadline for the whole fetch, redirects included (at most ${MAX_FETCH_TIMEOUT_SECONDS}).`,
      ),
  })
  .strict();

/** How the tool reaches the network: the real resolver and the public-address rule unless a test builds its own. */
export interface WebfetchDeps {
  lookup?: LookupAll;
  /** TEST ONLY (see `AllowAddressForTests`): the production tool below never sets it. */
  allowAddress?: AllowAddressForTests;
}

/** The webfetch tool; the registry's is `webfetchTool`, built with no dependencies overridden. */
export function createWebfetchTool(deps: WebfetchDeps = {}): AgentTool {
  return defineTool({
    name: 'webfetch',
    kind: 'webfetch',
    description: [
      'Fetch a URL from the public internet (http/https only; private, loopback and metadata addresses are refused) and return {status, url, content_type, content, truncated}.',
      'HTML is converted to Markdown; bodies past 2 MiB are cut ("truncated"); up to 10 redirects are followed, each checked; "url" is where it ended.',
      `Defaults: method GET, timeout_seconds ${DEFAULT_FETCH_TIMEOUT_SECONDS} (max ${MAX_FETCH_TIMEOUT_SECONDS}). URLs containing secrets are refused. Needs the user's approval unless a rule or mode allows it.`,
    ].join(' '),
    schema,
    intend(args, context) {
      // Checked before the policy asks anyone: no point approving a URL the guard will refuse.
      const check = checkUrl(args.url, toRedactText(context));
      if (!check.ok)
        throw new ToolFailure(`cannot fetch ${JSON.stringify(args.url)}: ${check.reason}`);
      return {
        action: { kind: 'webfetch', tool: 'webfetch', url: check.url.href },
        target: check.url.href,
      };
    },
    plan(args, _context, url) {
      return { preview: `${args.method} ${url}`, data: url };
    },
    async execute(args, context, url) {
      const deadline = context.now() + args.timeout_seconds * 1000;
      const result = await guardedFetch(url, {
        method: args.method,
        headers: args.headers ?? {},
        timeoutMs: args.timeout_seconds * 1000,
        maxBytes: MAX_FETCH_BYTES,
        redact: toRedactText(context),
        signal: context.signal,
        ...(deps.lookup === undefined ? {} : { lookup: deps.lookup }),
        ...(deps.allowAddress === undefined ? {} : { allowAddress: deps.allowAddress }),
      });
      if (!result.ok)
        throw new ToolFailure(`fetch of ${result.url} ${result.kind}: ${result.reason}`);
      const contentType = result.headers['content-type'] ?? '';
      // The body is redacted after this cut: a secret it split would leave a prefix too short to see.
      const body = result.truncated ? dropPartialTokenAtEnd(result.body) : result.body;
      const timeoutMs = Math.max(MIN_CONVERSION_MS, deadline - context.now());
      const content = await toContent(body, contentType, args.method, timeoutMs, context.signal);
      return {
        status: result.status,
        url: result.finalUrl,
        content_type: contentType,
        content: content.text,
        ...(content.note === undefined ? {} : { note: content.note }),
        truncated: result.truncated,
      };
    },
  });
}

export const webfetchTool = createWebfetchTool();

/** The redactor as the network guard wants it: any change to the text means it held a secret. */
function toRedactText(context: ToolContext): RedactText {
  return (text) => (context.redact(text) === text ? { redactions: [] } : { redactions: [text] });
}

async function toContent(
  body: string,
  contentType: string,
  method: 'GET' | 'HEAD',
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ text: string; note?: string }> {
  if (method === 'HEAD') return { text: '' };
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    try {
      return await htmlToMarkdown(body, { timeoutMs, signal });
    } catch (error) {
      if (error instanceof ConversionStopped) throw new ToolFailure(error.message);
      throw error;
    }
  }
  if (type !== '' && !isTextual(type)) return { text: `[${type} content not shown: not text]` };
  return { text: body };
}

function isTextual(type: string): boolean {
  return (
    type.startsWith('text/') ||
    /[/+](json|xml|javascript|ecmascript|yaml|x-yaml|toml|csv|markdown|x-sh|graphql)$/.test(type)
  );
}
