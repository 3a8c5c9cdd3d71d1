import { MAX_ARGUMENT_DEPTH, TOO_DEEP_ARGUMENTS } from '../../providers/bound-tool-arguments.js';
import type { ToolCall } from '../../providers/types.js';
import type { AgentTool, ToolContext, ToolRunResult } from '../tools/tool-types.js';

/**
 * Runs one call the model made. An unknown tool or arguments that are not a JSON object become a
 * failed result the model can read (never an exception); everything else is the tool's own `run`.
 */
export async function runToolCall(
  call: ToolCall,
  tools: ReadonlyMap<string, AgentTool>,
  context: ToolContext,
): Promise<ToolRunResult> {
  const tool = tools.get(call.name);
  if (tool === undefined) {
    const known = [...tools.keys()].join(', ');
    return failed(`unknown tool ${JSON.stringify(call.name)}; the tools are: ${known}`, context);
  }
  const broken = describeBrokenArguments(call.arguments);
  if (broken !== undefined) return failed(`invalid arguments: ${broken}`, context);
  return tool.run(call.arguments, context);
}

/** Providers pass arguments that are not valid JSON on as the raw string (ToolCall.arguments). */
function describeBrokenArguments(args: unknown): string | undefined {
  if (args === undefined || args === null) return undefined;
  if (args === TOO_DEEP_ARGUMENTS)
    return `the arguments nest objects or arrays deeper than ${MAX_ARGUMENT_DEPTH} levels; send a flat JSON object with the named arguments`;
  if (typeof args === 'string')
    return 'the arguments are not valid JSON; send one JSON object with the named arguments';
  if (typeof args !== 'object' || Array.isArray(args))
    return 'the arguments must be one JSON object with the named arguments';
  return undefined;
}

function failed(error: string, context: ToolContext): ToolRunResult {
  return { ok: false, content: JSON.stringify({ ok: false, error: context.redact(error) }) };
}

/** Adds a note for the model to a result's JSON (the repeated-call nudge), keeping it valid JSON. */
export function withNote(content: string, note: string): string {
  try {
    const parsed = JSON.parse(content) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return JSON.stringify({ ...(parsed as Record<string, unknown>), note });
  } catch {
    // Not JSON: fall through and append the note as text.
  }
  return `${content}\n\nnote: ${note}`;
}
