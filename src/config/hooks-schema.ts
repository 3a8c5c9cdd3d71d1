import { z } from 'zod';

/** 60 s unless the hook says otherwise: a hook runs on every matching event, so it should be quick. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const hookEntry = z
  .object({
    /** A tool-name pattern (a regular expression matched against the whole name); absent or `*`: every tool. */
    matcher: z
      .string()
      .refine(isValidMatcher, 'the matcher is not a valid regular expression')
      .optional(),
    /** Run with `bash -c` in the workspace (sandboxed), the event as JSON on stdin. */
    command: z.string().min(1),
    /** Seconds before the hook is stopped. */
    timeout: z.number().int().min(1).max(600).optional(),
    /**
     * false: run outside the sandbox, with your full rights (default true: the sandbox bash uses,
     * with the workspace read-only in plan mode). `oy doctor` names every such hook.
     */
    sandbox: z.boolean().optional(),
  })
  .strict();

export type HookEntry = z.infer<typeof hookEntry>;

export const hooksSchema = z
  .object({
    PreToolUse: z.array(hookEntry).optional(),
    PostToolUse: z.array(hookEntry).optional(),
    UserPromptSubmit: z.array(hookEntry).optional(),
    Stop: z.array(hookEntry).optional(),
  })
  .strict();

export type HookSettings = z.infer<typeof hooksSchema>;

function isValidMatcher(matcher: string): boolean {
  try {
    new RegExp(matcher, 'u');
    return true;
  } catch {
    return false;
  }
}
