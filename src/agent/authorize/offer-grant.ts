import path from 'node:path';
import ignore from 'ignore';
import {
  lexCommand,
  type CommandSplit,
  type SimpleCommand,
} from '../../safety/policy/command-lexer.js';
import { allowRuleMatchesCommand, hostOfUrl } from '../../safety/policy/match-rules.js';
import type { PermissionRule } from '../../safety/policy/permission-rule.js';
import { TODO_FILE, type ToolAction } from '../../safety/policy/tool-action.js';

/** What answering "always" would grant: rules built from what was shown (never parsed from text), and those words. */
export interface GrantOffer {
  /** Empty when nothing can be remembered; the answer then holds for this call only. */
  rules: PermissionRule[];
  /** One line for the approval prompt, starting with `always:`. */
  summary: string;
}

type BashRule = Extract<PermissionRule, { kind: 'bash' }>;

// Words a shell reads as themselves; anything else is shown single-quoted.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/u;
// Characters a gitignore pattern treats as wildcards; a granted path is matched literally.
const GLOB_CHARACTERS = /[\\*?[\]]/gu;

/**
 * The narrowest grant for an action the user approved: each simple command of a command exactly
 * (words as bash reads them; no prefix, no wildcard), each path exactly (anchored at the workspace
 * root, wildcards escaped), a URL's host. `split` is the command as splitCommand saw it (the
 * lexer's split when not given).
 */
export function offerGrant(action: ToolAction, split: CommandSplit | undefined): GrantOffer {
  switch (action.tool) {
    case 'bash':
      return offerCommands(split ?? lexCommand(action.command));
    case 'webfetch': {
      const host = hostOfUrl(action.url);
      if (host === null || host.includes('*')) return nothing('the URL has no plain host');
      return {
        rules: [{ kind: 'webfetch', text: `WebFetch(domain:${host})`, domain: host }],
        summary: `always: allows fetching from exactly ${host} (any path) for this session`,
      };
    }
    case 'read':
      return offerPaths('read', [action.path]);
    case 'todo':
      return offerPaths('write', action.kind === 'write' ? [TODO_FILE] : []);
    case 'replace':
      return offerPaths('write', action.files.length > 0 ? action.files : namedPath(action.path));
    case 'write':
    case 'edit':
      return offerPaths('write', namedPath(action.path));
    case 'mcp': {
      const { server, tool } = action.mcp;
      return {
        rules: [{ kind: 'mcp', text: `Mcp(${server}:${tool})`, server, tool }],
        summary: `always: allows the MCP tool ${server}:${tool} (any arguments) for this session`,
      };
    }
    default:
      return nothing('no rule names this tool');
  }
}

function offerCommands(split: CommandSplit): GrantOffer {
  if (split.kind !== 'parsed') return nothing('the command cannot be checked with certainty');
  const rules: BashRule[] = [];
  for (const command of split.commands) {
    const rule = exactCommandRule(command);
    if (rule === undefined)
      return nothing(
        `${describeCommand(command)} is not literal (an expansion, or a redirection to a file)`,
      );
    if (!rules.some((known) => known.text === rule.text)) rules.push(rule);
  }
  if (rules.length === 0) return nothing('the command names no program');
  const shown = rules.map((rule) => `\`${rule.text.slice('Bash('.length, -1)}\``);
  const parts = rules.length === 1 ? 'this command' : `each of its ${rules.length} parts`;
  return {
    rules,
    summary: `always: allows exactly ${joinWords(shown)} for this session (${parts}, no other arguments)`,
  };
}

/** An exact rule for one simple command, or undefined when no rule can allow it again (checked, not assumed). */
function exactCommandRule(command: SimpleCommand): BashRule | undefined {
  const words = [...command.assignments, ...command.argv];
  if (words.length === 0 || command.argv.length === 0) return undefined;
  const rule: BashRule = {
    kind: 'bash',
    text: `Bash(${words.map(quoteWord).join(' ')})`,
    words,
    isPrefix: false,
  };
  return allowRuleMatchesCommand(rule, command) ? rule : undefined;
}

function offerPaths(kind: 'read' | 'write', requested: readonly string[]): GrantOffer {
  const rules: PermissionRule[] = [];
  for (const item of requested) {
    const posixPath = path.posix.normalize(item.split(path.sep).join('/'));
    if (posixPath === '.' || posixPath.startsWith('../') || path.posix.isAbsolute(posixPath))
      return nothing(`${item} is not a path inside the workspace`);
    // Anchored and escaped: `src/[id].ts` grants that file, not `src/i.ts` or a.ts at any depth.
    const pattern = `/${posixPath.replace(GLOB_CHARACTERS, '\\$&').replace(/ $/u, '\\ ')}`;
    rules.push({
      kind,
      text: `${kind === 'read' ? 'Read' : 'Write'}(${posixPath})`,
      pattern,
      exactMatcher: ignore({ ignorecase: false }).add(pattern),
      foldedMatcher: ignore({ ignorecase: true }).add(pattern),
    });
  }
  if (rules.length === 0) return nothing('it names no file');
  const verb = kind === 'read' ? 'reading' : 'changing';
  const shown = rules.map((rule) => `\`${rule.text.slice(rule.text.indexOf('(') + 1, -1)}\``);
  return {
    rules,
    summary: `always: allows ${verb} exactly ${joinWords(shown)} for this session`,
  };
}

function namedPath(requested: string): string[] {
  return requested === '' ? [] : [requested];
}

function nothing(why: string): GrantOffer {
  return { rules: [], summary: `always: cannot be remembered (${why}); it allows this call only` };
}

function describeCommand(command: SimpleCommand): string {
  const words = [...command.assignments, ...command.argv].map(quoteWord).join(' ');
  return words === '' ? 'a part of the command' : `\`${words}${command.isDynamic ? ' …' : ''}\``;
}

/** A word as a person would type it back: plain, or single-quoted. */
function quoteWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}
