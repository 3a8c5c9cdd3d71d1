import { isObjectMember, MAX_GENERIC_SECRET_CHARS } from '../is-plausible-secret.js';
import { isStatedSecret } from '../is-stated-secret.js';
import type { ValueRange, WindowRule } from '../redaction-rule.js';
import {
  CREDENTIAL_FLAG_TABLE,
  PASSWORD_VARIABLES,
  type CredentialFlag,
  type CredentialFlagRow,
} from './credential-flag-table.js';
import { readArrayWords, readShellWords, type CommandWord } from './read-command-words.js';

// The window is the name's own line: its arguments are read from the text from there, over
// continued lines too, by the word reader.
const COMMAND_LINES = 0;
// How many words a subcommand may come after the command name (`docker --config x login`).
const MAX_SUBCOMMAND_INDEX = 4;

const ROW_BY_COMMAND = new Map<string, CredentialFlagRow>(
  CREDENTIAL_FLAG_TABLE.flatMap((row) => row.commands.map((command) => [command, row] as const)),
);
// A command name where a command starts: after a blank, an operator, a quote or a path, and
// followed by a blank or the quote closing an exec-form element.
const COMMAND_NAME = new RegExp(
  String.raw`(?<![\w.-])(?:[\w.~-]*/)?(${[...ROW_BY_COMMAND.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[-.]/g, '\\$&'))
    .join('|')})(?=[ \t"'])`,
  'g',
);

// A password variable set where a name starts: `PGPASSWORD=…` (a command's prefix, `export`, an
// env list) or `POSTGRES_PASSWORD: …` (a compose `environment:` map), its name quoted or not.
const PASSWORD_VARIABLE = new RegExp(
  String.raw`(?<![\w$.-])(?:${PASSWORD_VARIABLES.join('|')})(?:=|["']?:[ \t]+)`,
  'g',
);
/** The credential arguments of common tools: `mysql -p...`, `docker login -p`, `redis-cli -a`, ... */
export const COMMAND_LINE_CREDENTIAL_RULE: WindowRule = {
  id: 'command-line-credential',
  description:
    'A password, key or token passed on a command line to a tool that takes one (mysql -p, docker login -p, redis-cli -a, sshpass -p, keytool -storepass, openssl pass:, ldapsearch -w, htpasswd -b, smbclient -U user%pw, ...), or in the variable it reads one from (PGPASSWORD=, MYSQL_PWD=, SSHPASS=, ...)',
  // The name and what follows it in a command (a blank) or an exec-form element (its quote).
  keywords: [
    ...[...ROW_BY_COMMAND.keys()].flatMap((name) => [`${name} `, `${name}"`, `${name}'`]),
    ...PASSWORD_VARIABLES.map((name) => name.toLowerCase()),
  ],
  scope: 'window',
  contextLines: COMMAND_LINES,
  findIn(text: string, start: number, end: number): ValueRange[] {
    const window = text.slice(start, end);
    const found: ValueRange[] = [];
    COMMAND_NAME.lastIndex = 0;
    for (let match = COMMAND_NAME.exec(window); match !== null; match = COMMAND_NAME.exec(window)) {
      const row = ROW_BY_COMMAND.get(match[1] ?? '');
      if (row === undefined) continue;
      const nameEnd = start + match.index + match[0].length;
      const before = text[start + match.index - 1] ?? '';
      const after = text[nameEnd];
      const opensLiteral = before === '"' || before === "'";
      // `["mysql", "-p…"]` is an exec-form array; `"mysql -p…"` a command in a string literal.
      const words =
        opensLiteral && after === before
          ? readArrayWords(text, nameEnd + 1)
          : readShellWords(text, nameEnd, opensLiteral ? before : '');
      found.push(...findCredentials(row, words));
    }
    found.push(...findPasswordVariables(text, start, window));
    return found;
  },
};

/** The values of the password variables set in the window, judged as stated secrets. */
function findPasswordVariables(text: string, start: number, window: string): ValueRange[] {
  const found: ValueRange[] = [];
  PASSWORD_VARIABLE.lastIndex = 0;
  for (
    let match = PASSWORD_VARIABLE.exec(window);
    match !== null;
    match = PASSWORD_VARIABLE.exec(window)
  ) {
    const valueStart = start + match.index + match[0].length;
    const value = match[0].endsWith('=')
      ? readAssignedWord(text, valueStart, text[start + match.index - 1] ?? '')
      : readMappedValue(text, valueStart);
    // A value is read once: a name inside it (`A_PASS=B_PASS=…`) is part of it, not another entry.
    if (value !== undefined)
      PASSWORD_VARIABLE.lastIndex = Math.max(
        PASSWORD_VARIABLE.lastIndex,
        (value.offsets[value.offsets.length - 1] ?? 0) + 1 - start,
      );
    const isMember =
      value !== undefined && !match[0].endsWith('=') && isUnquotedMember(text, value);
    const range =
      value !== undefined &&
      value.text.length <= MAX_GENERIC_SECRET_CHARS &&
      isStatedSecret(value.text) &&
      !isMember
        ? rangeOf(value)
        : undefined;
    if (range !== undefined) found.push(range);
  }
  return found;
}

/** Whether a map entry's value is unquoted code ending as a JS object's member does. */
function isUnquotedMember(text: string, value: CommandWord): boolean {
  const before = text[(value.offsets[0] ?? 0) - 1] ?? '';
  return before !== '"' && before !== "'" && isObjectMember(value.text);
}

// One word, read at most a value's length: a minified line of many assignments costs each one that.
const ASSIGNED_WORD_LIMITS = { words: 1, chars: MAX_GENERIC_SECRET_CHARS + 1 };

/** The shell word after `NAME=`; none when the variable is set empty (`PGPASSWORD= psql`). */
function readAssignedWord(text: string, at: number, before: string): CommandWord | undefined {
  if (/\s/.test(text[at] ?? '\n')) return undefined;
  // Inside a string literal (`"sh", "-c", "PGPASSWORD=… pg_dump"`) the literal's quote ends it.
  const closer = before === '"' || before === "'" ? before : '';
  return readShellWords(text, at, closer, ASSIGNED_WORD_LIMITS)[0];
}

/**
 * The value of a `NAME: value` map entry: a quoted scalar's contents, or a plain one to the end of
 * its line or a ` #` comment. A plain YAML scalar holds `&`, `;` and `|` as text, so it is not read
 * as shell words.
 */
const MAPPED_VALUE_LINE = /[^\n]{0,1024}/y;

function readMappedValue(text: string, at: number): CommandWord | undefined {
  // Read at most a value's length of the line: a minified line of many entries costs each one that.
  MAPPED_VALUE_LINE.lastIndex = at;
  const line = (MAPPED_VALUE_LINE.exec(text)?.[0] ?? '').replace(/\r$/, '');
  const quote = line[0];
  let from = 0;
  let to: number;
  if (quote === '"' || quote === "'") {
    from = 1;
    to = line.indexOf(quote, 1);
    if (to === -1) return undefined;
  } else {
    const comment = line.search(/[ \t]#/);
    to = (comment === -1 ? line : line.slice(0, comment)).trimEnd().length;
  }
  const body = line.slice(from, to);
  return body === ''
    ? undefined
    : { text: body, offsets: Array.from(body, (_, offset) => at + from + offset) };
}

/** The ranges of the credentials among a command's words. */
function findCredentials(row: CredentialFlagRow, words: readonly CommandWord[]): ValueRange[] {
  let first = 0;
  if (row.subcommands !== undefined) {
    const subcommand = words.findIndex(
      (word, index) => index < MAX_SUBCOMMAND_INDEX && row.subcommands?.includes(word.text),
    );
    if (subcommand === -1) return [];
    first = subcommand + 1;
  }
  const found: ValueRange[] = [];
  const flags = [...row.flags].sort((a, b) => b.name.length - a.name.length);
  for (let index = first; index < words.length; index += 1) {
    const word = words[index] as CommandWord;
    for (const flag of flags) {
      const value = valueOf(flag, word, words[index + 1]);
      if (value === undefined) continue;
      const range = secretRange(flag, value);
      if (range !== undefined) found.push(range);
      break;
    }
  }
  const batch =
    row.batchPassword === undefined ? undefined : batchPassword(row, words.slice(first));
  if (batch !== undefined) found.push(batch);
  return found;
}

/** The word (or part of one) that carries the flag's value, if `word` is that flag. */
function valueOf(
  flag: CredentialFlag,
  word: CommandWord,
  next?: CommandWord,
): CommandWord | undefined {
  const { name, form } = flag;
  const takesNext = form === 'next' || form === 'next-or-glued' || form === 'next-or-equals';
  if (word.text === name) {
    return takesNext && next !== undefined && !next.text.startsWith('-') ? next : undefined;
  }
  if (!word.text.startsWith(name)) return undefined;
  const hasEquals = word.text[name.length] === '=';
  if (hasEquals && form !== 'glued' && form !== 'next') return slice(word, name.length + 1);
  if (form === 'glued' || form === 'next-or-glued') return slice(word, name.length);
  return undefined;
}

/** The secret's range in the value word, by which part of it the flag's secret is. */
function secretRange(flag: CredentialFlag, value: CommandWord): ValueRange | undefined {
  let secret = value;
  if (flag.part === 'after-percent' || flag.part === 'after-comma') {
    const at = value.text.indexOf(flag.part === 'after-percent' ? '%' : ',');
    if (at === -1) return undefined;
    secret = slice(value, at + 1);
  } else if (flag.part === 'after-pass-prefix') {
    if (!value.text.startsWith('pass:')) return undefined;
    secret = slice(value, 'pass:'.length);
  }
  return isStatedSecret(secret.text) ? rangeOf(secret) : undefined;
}

/** `htpasswd -b [-c...] file user password` (or `-nb user password`): the last positional word. */
function batchPassword(
  row: CredentialFlagRow,
  words: readonly CommandWord[],
): ValueRange | undefined {
  const batch = row.batchPassword;
  if (batch === undefined) return undefined;
  const options = words.filter((word) => /^-[A-Za-z]+$/.test(word.text)).map((word) => word.text);
  if (!options.some((option) => option.includes(batch.flag))) return undefined;
  const positionals = words.filter((word) => !word.text.startsWith('-'));
  const count = options.some((option) => option.includes(batch.withoutFile))
    ? batch.positionals - 1
    : batch.positionals;
  const password = positionals[count - 1];
  return password !== undefined && isStatedSecret(password.text) ? rangeOf(password) : undefined;
}

function slice(word: CommandWord, from: number): CommandWord {
  return { text: word.text.slice(from), offsets: word.offsets.slice(from) };
}

function rangeOf(word: CommandWord): ValueRange | undefined {
  const first = word.offsets[0];
  const last = word.offsets[word.offsets.length - 1];
  return first === undefined || last === undefined ? undefined : { start: first, end: last + 1 };
}
