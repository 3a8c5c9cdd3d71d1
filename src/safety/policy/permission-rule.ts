import ignore, { type Ignore } from 'ignore';
import type { PermissionRules } from '../../config/config-schema.js';
import { RULE_SHAPE } from '../../config/permission-rule-shape.js';
import { ConfigError } from '../../shared/errors.js';
import { lexCommand } from './command-lexer.js';

/** Which tools a file rule governs: Read the read tools, Write and Edit every tool that changes files. */
export type FileRuleKind = 'read' | 'write' | 'edit';

/** One parsed permission rule; `text` is how the user wrote it, for every message that names it. */
export type PermissionRule =
  | {
      kind: 'bash';
      text: string;
      /** null: every command (`Bash`). Otherwise the words, assignments first, as the shell reads them. */
      words: string[] | null;
      isPrefix: boolean;
    }
  | {
      kind: FileRuleKind;
      text: string;
      /** null: every path. Otherwise a gitignore-style pattern, matched with the `ignore` package. */
      pattern: string | null;
      /** Case-sensitive matcher for allow rules, so `SRC/` is not allowed by `Write(src/**)` on Linux. */
      exactMatcher: Ignore | null;
      /** Case-insensitive matcher for deny and ask rules, which must also hold on macOS and Windows. */
      foldedMatcher: Ignore | null;
    }
  | {
      kind: 'webfetch';
      text: string;
      /** null: every URL. `*.example.com` matches subdomains at any depth, not `example.com` itself. */
      domain: string | null;
    }
  | {
      kind: 'mcp';
      text: string;
      /** null: every MCP server. */
      server: string | null;
      /** null: every tool of the server. */
      tool: string | null;
    };

export interface ParsedPermissionRules {
  allow: PermissionRule[];
  ask: PermissionRule[];
  deny: PermissionRule[];
}

// A server name as the config allows it; a tool name as MCP servers name them.
const MCP_NAME = /^[A-Za-z0-9_.-]+$/u;
const PREFIX_SUFFIX = ':*';
const HOST = /^(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*$/u;
const RULE_EXAMPLES =
  'examples: Bash(npm test), Bash(git status:*), Write(src/**), Read(secrets/**), WebFetch(domain:docs.python.org), Mcp(github:create_issue)';

/** Parse every rule of a merged config; the first malformed one is a ConfigError naming it. */
export function parsePermissionRules(rules: PermissionRules): ParsedPermissionRules {
  return {
    allow: rules.allow.map(parsePermissionRule),
    ask: rules.ask.map(parsePermissionRule),
    deny: rules.deny.map(parsePermissionRule),
  };
}

/** Parse one rule such as `Bash(git status:*)`; a malformed rule is a ConfigError that quotes it. */
export function parsePermissionRule(text: string): PermissionRule {
  const shape = RULE_SHAPE.exec(text.trim());
  if (shape === null)
    fail(text, 'expected Bash(...), Write(...), Edit(...), Read(...), WebFetch(...) or Mcp(...)');
  const [, tool = '', content] = shape;
  if (content !== undefined && content.trim() === '') fail(text, 'the parentheses are empty');
  if (tool === 'Bash') return parseBashRule(text, content);
  if (tool === 'WebFetch') return parseWebFetchRule(text, content);
  if (tool === 'Mcp') return parseMcpRule(text, content);
  return parseFileRule(text, tool.toLowerCase() as FileRuleKind, content);
}

function fail(text: string, reason: string): never {
  throw new ConfigError(`invalid permission rule ${JSON.stringify(text)}: ${reason}`, {
    hint: RULE_EXAMPLES,
  });
}

function parseBashRule(text: string, content: string | undefined): PermissionRule {
  if (content === undefined || content.trim() === '*')
    return { kind: 'bash', text, words: null, isPrefix: true };
  const isPrefix = content.trimEnd().endsWith(PREFIX_SUFFIX);
  const body = isPrefix ? content.trimEnd().slice(0, -PREFIX_SUFFIX.length) : content;
  const lexed = lexCommand(body);
  if (lexed.kind === 'uncertain')
    fail(text, `the command cannot be read literally: ${lexed.reason}`);
  const [command, extra] = lexed.commands;
  if (command === undefined || extra !== undefined)
    fail(text, 'a rule names exactly one simple command');
  if (command.isDynamic || command.hasDynamicAssignment) {
    fail(text, 'a rule must be literal; for a prefix, end it with ":*" as in Bash(git status:*)');
  }
  if (command.redirections.length > 0) fail(text, 'a rule cannot contain redirections');
  if (command.argv.length === 0) fail(text, 'the rule names no command');
  return { kind: 'bash', text, words: [...command.assignments, ...command.argv], isPrefix };
}

function parseWebFetchRule(text: string, content: string | undefined): PermissionRule {
  if (content === undefined) return { kind: 'webfetch', text, domain: null };
  const trimmed = content.trim();
  if (!trimmed.startsWith('domain:')) fail(text, 'a WebFetch rule is WebFetch(domain:<host>)');
  const domain = trimmed.slice('domain:'.length).toLowerCase().replace(/\.$/u, '');
  if (!HOST.test(domain))
    fail(text, `${JSON.stringify(domain)} is not a host name or *.host pattern`);
  return { kind: 'webfetch', text, domain };
}

/** `Mcp` (every server), `Mcp(<server>)` or `Mcp(<server>:<tool>)`. */
function parseMcpRule(text: string, content: string | undefined): PermissionRule {
  if (content === undefined) return { kind: 'mcp', text, server: null, tool: null };
  const [server = '', tool, extra] = content.trim().split(':');
  if (extra !== undefined || !MCP_NAME.test(server) || (tool !== undefined && !MCP_NAME.test(tool)))
    fail(
      text,
      'an Mcp rule is Mcp(<server>) or Mcp(<server>:<tool>), names of letters, digits, _ . -',
    );
  return { kind: 'mcp', text, server, tool: tool ?? null };
}

function parseFileRule(
  text: string,
  kind: FileRuleKind,
  content: string | undefined,
): PermissionRule {
  if (content === undefined)
    return { kind, text, pattern: null, exactMatcher: null, foldedMatcher: null };
  const pattern = content.trim().replace(/^\.\//u, '');
  if (pattern.startsWith('!'))
    fail(text, 'a negated pattern cannot be a rule; write a deny or allow rule instead');
  if (pattern.includes('\0')) fail(text, 'the pattern contains a NUL byte');
  if (pattern.split('/').includes('..'))
    fail(text, 'the pattern climbs out of the workspace with ".."');
  return {
    kind,
    text,
    pattern,
    exactMatcher: ignore({ ignorecase: false }).add(pattern),
    foldedMatcher: ignore({ ignorecase: true }).add(pattern),
  };
}
