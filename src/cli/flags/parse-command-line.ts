import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../../shared/errors.js';
import { editDistance } from '../../shared/text/edit-distance.js';
import { COMMANDS, GLOBAL_FLAGS, SHORTHAND, findCommand } from './command-table.js';
import {
  flagKey,
  isValueFlag,
  type CommandSpec,
  type FlagSpec,
  type FlagValues,
} from './flag-spec.js';
import { parseFlagValue } from './parse-flag-value.js';

export interface ParsedCommandLine {
  /** The command named, the shorthand for words that name none, or null for a bare `oy`. */
  command: CommandSpec | null;
  positionals: string[];
  values: FlagValues;
}

/** Edits within which an unknown flag is taken as a typo of a known one. */
const MAX_TYPO_DISTANCE = 2;
/** A negative number: a value, not a flag (`--max-chunks -1` gets the range message). */
const NEGATIVE_NUMBER = /^-\d|^-\.\d/;

const ALL_FLAGS = uniqueByName([
  ...GLOBAL_FLAGS,
  ...COMMANDS.flatMap((command) => command.flags),
  ...SHORTHAND.flags,
]);

/**
 * Reads argv with node's parseArgs, which keeps every value as typed (no number coercion, and
 * `--out -` or `--max-chunks -1` reach the flag as values), then checks each flag against the
 * command's table: an unknown flag, a missing value or a bad one is a usage error with a hint.
 */
export function parseCommandLine(args: readonly string[]): ParsedCommandLine {
  const { tokens } = parseArgs({
    args: [...args],
    options: toParseArgsOptions(ALL_FLAGS),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const words = tokens.flatMap((token) => (token.kind === 'positional' ? [token.value] : []));
  const named = words[0] === undefined ? undefined : findCommand(words[0]);
  const command = named ?? (words.length > 0 ? SHORTHAND : null);
  const positionals = named === undefined ? words : words.slice(1);
  const allowed = [...GLOBAL_FLAGS, ...(command ?? SHORTHAND).flags];
  const values: FlagValues = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = allowed.find((flag) => flag.name === token.name || flag.short === token.name);
    if (spec === undefined) throw unknownFlag(token.rawName, command, allowed);
    readFlag(spec, token.rawName, token.value, token.inlineValue === true, values);
  }
  return { command, positionals, values };
}

function readFlag(
  spec: FlagSpec,
  rawName: string,
  value: string | undefined,
  isInline: boolean,
  values: FlagValues,
): void {
  const key = flagKey(spec);
  if (!isValueFlag(spec)) {
    if (value !== undefined)
      throw new UsageError(`${rawName} takes no value, got \`${value}\``, {
        hint: `write ${rawName} alone`,
      });
    values[key] = !spec.name.startsWith('no-');
    return;
  }
  const looksLikeFlag = value !== undefined && value.length > 1 && value.startsWith('-');
  if (value === undefined || (looksLikeFlag && !isInline && !NEGATIVE_NUMBER.test(value))) {
    throw new UsageError(
      value === undefined
        ? `--${spec.name} needs a value`
        : `--${spec.name} needs a value, got the flag ${value}`,
      {
        hint: `for example ${spec.example}; a value that starts with a dash is written --${spec.name}=<value>`,
      },
    );
  }
  const parsed = parseFlagValue(spec, value);
  if (spec.kind === 'text' && spec.isRepeatable) {
    const previous = values[key];
    values[key] = [...(Array.isArray(previous) ? previous : []), String(parsed)];
  } else values[key] = parsed;
}

function unknownFlag(
  rawName: string,
  command: CommandSpec | null,
  allowed: readonly FlagSpec[],
): UsageError {
  const where = command === null || command.name === '' ? 'oy' : `oy ${command.name}`;
  const help = `${where === 'oy' ? 'oy --help' : `oy help ${command?.name ?? ''}`} lists its flags`;
  const name = rawName.replace(/^-+/, '').split('=')[0] ?? '';
  const closest = allowed
    .map((flag) => ({ flag, distance: editDistance(name, flag.name) }))
    .sort((a, b) => a.distance - b.distance)[0];
  if (closest !== undefined && closest.distance <= MAX_TYPO_DISTANCE)
    return new UsageError(`unknown flag ${rawName} for ${where}`, {
      hint: `did you mean --${closest.flag.name}? ${help}`,
    });
  const owner = COMMANDS.find((other) => other.flags.some((flag) => flag.name === name));
  if (owner !== undefined)
    return new UsageError(`${rawName} is not a flag of ${where}`, {
      hint: `it belongs to oy ${owner.name}; ${help}`,
    });
  return new UsageError(`unknown flag ${rawName} for ${where}`, { hint: help });
}

function toParseArgsOptions(flags: readonly FlagSpec[]): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    flags.map((flag) => [
      flag.name,
      {
        type: isValueFlag(flag) ? ('string' as const) : ('boolean' as const),
        ...(flag.short === undefined ? {} : { short: flag.short }),
      },
    ]),
  );
}

function uniqueByName(flags: readonly FlagSpec[]): FlagSpec[] {
  const seen = new Map<string, FlagSpec>();
  for (const flag of flags) if (!seen.has(flag.name)) seen.set(flag.name, flag);
  return [...seen.values()];
}
