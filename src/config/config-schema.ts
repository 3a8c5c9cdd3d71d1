import { z } from 'zod';
import { TOKEN_ENCODINGS, type TokenEncoding } from './token-encoding.js';
import {
  AUDIT_BOUNDS,
  DEFAULT_CHUNK_TOKENS,
  DEFAULT_MAX_CHUNKS,
  DEFAULT_MAX_FILE_BYTES,
  REPORT_FORMATS,
  type ReportFormat,
} from './config-bounds.js';
import { describeRuleShapeProblem } from './permission-rule-shape.js';
import { hooksSchema, type HookSettings } from './hooks-schema.js';
import { mcpServersSchema, type McpServers } from './mcp-servers-schema.js';
// eslint-disable-next-line no-restricted-imports -- configured models are checked at the config edge; the type belongs below providers/
import type { ConfiguredModel } from '../providers/model-facts/configured-models.js';
// eslint-disable-next-line no-restricted-imports -- model ids are validated at the config edge; parseModelId belongs below providers/
import { parseModelId } from '../providers/model-id/parse-model-id.js';

export {
  DEFAULT_CHUNK_TOKENS,
  DEFAULT_MAX_CHUNKS,
  DEFAULT_MAX_FILE_BYTES,
  REPORT_FORMATS,
  type ReportFormat,
} from './config-bounds.js';

export { TOKEN_ENCODINGS, type TokenEncoding } from './token-encoding.js';

const permissionRule = z.string().superRefine((text, context) => {
  const problem = describeRuleShapeProblem(text);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

const permissionRules = z
  .object({
    allow: z.array(permissionRule).optional(),
    ask: z.array(permissionRule).optional(),
    deny: z.array(permissionRule).optional(),
  })
  .strict();

const boundedInt = ({ min, max }: { min: number; max: number }) =>
  z.number().int().min(min).max(max).optional();

const auditSection = z
  .object({
    include: z.array(z.string()).optional(),
    exclude: z.array(z.string()).optional(),
    focus: z.array(z.string()).optional(),
    format: z.enum(REPORT_FORMATS).optional(),
    chunkTokens: boundedInt(AUDIT_BOUNDS.chunkTokens),
    maxChunks: boundedInt(AUDIT_BOUNDS.maxChunks),
    maxFileBytes: boundedInt(AUDIT_BOUNDS.maxFileBytes),
    tokenHeadroom: z.number().min(1).max(4).optional(),
    encoding: z.enum(TOKEN_ENCODINGS as [TokenEncoding, ...TokenEncoding[]]).optional(),
  })
  .strict();

/** `~/` and a path inside HOME, without `..`: the sandbox binds it read-only when it exists. */
const homePath = z
  .string()
  .regex(
    /^~\/(?!\.\.(?:\/|$))(?!.*\/\.\.(?:\/|$))[^\0]+$/,
    'a home path starts with ~/ and names a place inside your home folder, without ..',
  );

export const SANDBOX_SETTINGS = ['auto', 'on', 'off'] as const;
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

const agentSection = z
  .object({
    sandbox: z.enum(SANDBOX_SETTINGS).optional(),
    /** Names of credential-looking variables shell commands may still see. */
    allowEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
    /** Whether sandboxed shell commands get the network (loopback included); off by default. */
    network: z.boolean().optional(),
    /** Places in HOME (`~/…`) sandboxed commands may read, beyond the built-in toolchain places. */
    homePaths: z.array(homePath).optional(),
    /** Context window in tokens, for models the built-in table does not know. */
    contextWindow: z.number().int().min(1000).max(10_000_000).optional(),
  })
  .strict();

/** USD per million tokens; a price lets `--max-cost` work for a model the price table lacks. */
const modelPrice = z
  .object({
    input: z.number().min(0).max(10_000),
    output: z.number().min(0).max(10_000),
    cacheWrite: z.number().min(0).max(10_000).optional(),
    cacheRead: z.number().min(0).max(10_000).optional(),
  })
  .strict();

/** Facts about one model, over the built-in table's (src/providers/model-facts/). */
const modelEntry: z.ZodType<ConfiguredModel> = z
  .object({
    contextWindow: z.number().int().min(1000).max(10_000_000).optional(),
    maxOutputTokens: z.number().int().min(1).max(10_000_000).optional(),
    price: modelPrice.optional(),
    promptCache: z.boolean().optional(),
    minCacheableTokens: z.number().int().min(0).max(1_000_000).optional(),
    thinking: z.enum(['none', 'budgeted', 'adaptive', 'always']).optional(),
    streamingToolUse: z.boolean().optional(),
    toolResultStatus: z.boolean().optional(),
    inferenceProfileRequired: z.boolean().optional(),
    local: z.boolean().optional(),
  })
  .strict();

/** Keyed by model id; a key oy cannot read as one would never match, so it is an error here. */
const modelsSection = z.record(z.string(), modelEntry).superRefine((models, context) => {
  for (const key of Object.keys(models)) {
    try {
      parseModelId(key);
    } catch (error) {
      context.addIssue({ code: 'custom', path: [key], message: (error as Error).message });
    }
  }
});

/** What a config file may hold. Unknown keys are an error so typos do not pass silently. */
export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    model: z.string().min(1).optional(),
    permissions: permissionRules.optional(),
    audit: auditSection.optional(),
    agent: agentSection.optional(),
    /** MCP servers: read from the user file only (a project's come from an approved .mcp.json). */
    mcpServers: mcpServersSchema.optional(),
    /** Commands run around tool calls and turns: read from the user file only. */
    hooks: hooksSchema.optional(),
    /** User config only: a repository must not set prices or facts (see mergeConfig). */
    models: modelsSection.optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

export interface AuditSettings {
  include: string[];
  exclude: string[];
  focus: string[];
  format: ReportFormat;
  chunkTokens: number;
  maxChunks: number;
  maxFileBytes: number;
  /** null: the provider's own default (1.3 for Claude models). */
  tokenHeadroom: number | null;
  encoding: TokenEncoding;
}

export interface AgentSettings {
  sandbox: SandboxSetting;
  allowEnv: string[];
  /** Network for sandboxed commands: only this setting turns it on, never a WebFetch rule. */
  network: boolean;
  /** Places in HOME shown read-only to sandboxed commands (user config only); none when absent. */
  homePaths?: string[];
  /** null: the built-in table of known windows. */
  contextWindow: number | null;
}

export interface PermissionRules {
  allow: string[];
  ask: string[];
  deny: string[];
}

/** The configuration every command sees, after all layers are merged. */
export interface OyConfig {
  model: string | null;
  permissions: PermissionRules;
  audit: AuditSettings;
  agent: AgentSettings;
  /** From the user file only. */
  mcpServers: McpServers;
  /** From the user file only. */
  hooks: HookSettings;
  /** Facts about models the built-in table lacks or gets wrong, by model id (user config only). */
  models: Record<string, ConfiguredModel>;
}

export const DEFAULT_CONFIG: OyConfig = {
  model: null,
  permissions: { allow: [], ask: [], deny: [] },
  audit: {
    include: [],
    exclude: [],
    focus: [],
    format: 'markdown',
    chunkTokens: DEFAULT_CHUNK_TOKENS,
    maxChunks: DEFAULT_MAX_CHUNKS,
    maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    tokenHeadroom: null,
    encoding: 'o200k_base',
  },
  agent: { sandbox: 'auto', allowEnv: [], network: false, homePaths: [], contextWindow: null },
  mcpServers: {},
  hooks: {},
  models: {},
};
