import type { ConfigFile } from '../../config/config-schema.js';
import type { NumberBounds } from '../../config/config-bounds.js';

/** Config keys a flag may set: the flag layer is built from these, so a flag cannot drift from its key. */
export type FlagConfigKey = 'model' | `audit.${keyof NonNullable<ConfigFile['audit']>}`;

interface FlagBase {
  /** Long name without the dashes: `max-chunks`. A `no-x` switch sets `x` to false. */
  name: string;
  /** One letter: `-c`. */
  short?: string;
  help: string;
  /** The default as help shows it; absent when there is none worth saying. */
  defaultText?: string;
  configKey?: FlagConfigKey;
}

/** Present or not: `--dry-run`. A `no-` name (`--no-color`) gives its key `false`. */
export interface SwitchFlag extends FlagBase {
  kind: 'switch';
}

interface ValueFlagBase extends FlagBase {
  /** `<n>` in help. */
  placeholder: string;
  /** A valid use, for the hint of a bad value: `--concurrency 4`. */
  example: string;
}

export interface IntegerFlag extends ValueFlagBase {
  kind: 'integer';
  bounds: NumberBounds;
}

/** A decimal within bounds: `--min-coverage 0.9`; `exclusiveMin` for amounts that must be positive. */
export interface DecimalFlag extends ValueFlagBase {
  kind: 'decimal';
  bounds: NumberBounds;
  exclusiveMin?: boolean;
  /** What the number is, for the message: "an amount of US dollars". */
  noun: string;
}

/** A length of time: `30m`, `1h30m`, `24h`; the value is in milliseconds, within bounds. */
export interface DurationFlag extends ValueFlagBase {
  kind: 'duration';
  /** In milliseconds. */
  bounds: NumberBounds;
}

export interface ChoiceFlag extends ValueFlagBase {
  kind: 'choice';
  choices: readonly string[];
  /** Other words accepted for a choice (`yolo` for `auto`), lower case. */
  aliases?: Readonly<Record<string, string>>;
}

/** Free text; `isStdoutAllowed` lets `-` through (`--out -`), `isRef` refuses a leading dash (git would read an option). */
export interface TextFlag extends ValueFlagBase {
  kind: 'text';
  isRepeatable?: boolean;
  isStdoutAllowed?: boolean;
  isRef?: boolean;
}

export type FlagSpec =
  SwitchFlag | IntegerFlag | DecimalFlag | DurationFlag | ChoiceFlag | TextFlag;
export type ValueFlag = Exclude<FlagSpec, SwitchFlag>;

/** One command: its usage, help text and flags. The table in command-table.ts lists them all. */
export interface CommandSpec {
  /** Empty for the `oy "prompt"` shorthand. */
  name: string;
  /** `[path] [...focus]` */
  args: string;
  description: string;
  flags: readonly FlagSpec[];
  examples: readonly string[];
}

/** Values after parsing, by camel-case key (`maxChunks`; `color: false` for `--no-color`). */
export type FlagValues = Record<string, string | number | boolean | string[]>;

export function isValueFlag(spec: FlagSpec): spec is ValueFlag {
  return spec.kind !== 'switch';
}

/** The key a flag's value is stored under: `max-chunks` -> `maxChunks`, `no-color` -> `color`. */
export function flagKey(spec: FlagSpec): string {
  const name =
    spec.kind === 'switch' && spec.name.startsWith('no-') ? spec.name.slice(3) : spec.name;
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
