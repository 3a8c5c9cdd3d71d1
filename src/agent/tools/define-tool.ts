import { z } from 'zod';
import { isActionOfKind, type ToolKind } from '../../safety/policy/tool-action.js';
import type { AgentTool, ToolContext, ToolPlan, ToolRunResult, ToolSpec } from './tool-types.js';
import { ToolFailure } from './tool-types.js';
import { capResult } from './cap-result.js';

/** Default cap on a tool result; large enough for a 2,000-line read, small next to a 200k window. */
export const MAX_TOOL_RESULT_CHARS = 100_000;

/**
 * Builds a tool from its spec. `run` validates the model's arguments, works out what the
 * call would do from them alone (`intend`), asks the policy, and only then lets the tool read content
 * (`plan`: the preview and what execute needs) and execute; then it redacts every string and caps the
 * size, so no tool can forget a step. A refused call's result cannot depend on any file's content.
 * Every failure, including a bug in a tool, becomes `{"ok":false,"error":...}`.
 */
export function defineTool<Schema extends z.ZodType, Target, Data, Kind extends ToolKind>(
  spec: ToolSpec<Schema, Target, Data, Kind>,
): AgentTool {
  const maxChars = spec.maxResultChars ?? MAX_TOOL_RESULT_CHARS;
  // An MCP server's tools all show the policy the one tool name `mcp`.
  const actionTool = spec.kind === 'mcp' ? 'mcp' : spec.name;
  return {
    name: spec.name,
    kind: spec.kind,
    description: spec.description,
    inputSchema: toInputSchema(spec.schema),
    async run(rawArguments: unknown, context: ToolContext): Promise<ToolRunResult> {
      const parsed = spec.schema.safeParse(rawArguments ?? {});
      if (!parsed.success)
        return failure(context, `invalid arguments: ${describeIssues(parsed.error)}`, maxChars);
      try {
        const intent = await spec.intend(parsed.data, context);
        // The policy judges the action by its kind: a tool may never show it a milder one than it declared.
        if (!isActionOfKind(spec.kind, intent.action) || intent.action.tool !== actionTool)
          return failure(
            context,
            `internal error: the ${spec.name} tool declared kind ${spec.kind} but described a ${intent.action.kind} call of ${intent.action.tool}; nothing was done`,
            maxChars,
          );
        // Planned at most once: for the approval preview (an ask) or after an allow, never before the decision.
        let planned: Promise<ToolPlan<Data>> | undefined;
        const plan = () =>
          (planned ??= Promise.resolve(spec.plan(parsed.data, context, intent.target)));
        const authorization = await context.authorize({
          tool: spec.name,
          toolCallId: context.toolCallId,
          action: intent.action,
          preparePreview: async () => (await plan()).preview,
        });
        if (!authorization.allowed) {
          const content = serialize(
            context,
            {
              ok: false,
              error: authorization.reason,
              ...(authorization.rule === undefined ? {} : { denied_by: authorization.rule }),
            },
            maxChars,
          );
          const denied = {
            reason: authorization.reason,
            ...(authorization.rule === undefined ? {} : { rule: authorization.rule }),
          };
          return { ok: false, content, denied };
        }
        if (context.signal.aborted) return failure(context, 'cancelled by the user', maxChars);
        const { data } = await plan();
        if (context.signal.aborted) return failure(context, 'cancelled by the user', maxChars);
        const output = await spec.execute(parsed.data, context, data);
        return { ok: true, content: serialize(context, { ok: true, ...output }, maxChars) };
      } catch (error) {
        return failure(context, messageOf(error), maxChars);
      }
    },
  };
}

function failure(context: ToolContext, error: string, maxChars: number): ToolRunResult {
  return { ok: false, content: serialize(context, { ok: false, error }, maxChars) };
}

/** Redacts every string (keys too) before serialising, so JSON escapes never hide a secret from the redactor. */
function serialize(context: ToolContext, value: Record<string, unknown>, maxChars: number): string {
  return JSON.stringify(capResult(redactDeep(value, context.redact), maxChars));
}

function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[redact(key)] = redactDeep(item, redact);
    return result;
  }
  return value;
}

function messageOf(error: unknown): string {
  if (error instanceof ToolFailure) return error.message;
  if (error instanceof Error)
    return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  return String(error);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map(
      (issue) =>
        `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`,
    )
    .join('; ');
}

function toInputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // Providers want a bare object schema; the $schema marker is noise in every request.
  const { $schema: _ignored, ...rest } = json;
  return rest;
}
