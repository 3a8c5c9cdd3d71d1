// Whole values (lowercase, digits and punctuation removed) that are stand-ins, not secrets.
const OBVIOUS_WORDS = new Set([
  'admin',
  'apikey',
  'bar',
  'baz',
  'changeit',
  'changeme',
  'default',
  'dummy',
  'empty',
  'example',
  'false',
  'foo',
  'foobar',
  'guest',
  'hunter',
  'key',
  'letmein',
  'mypassword',
  'mysecret',
  'mytoken',
  'nil',
  'none',
  'null',
  'pass',
  'passwd',
  'password',
  'placeholder',
  'pwd',
  'qwerty',
  'redacted',
  'root',
  'sample',
  'secret',
  'secretkey',
  'string',
  'test',
  'testing',
  'todo',
  'token',
  'true',
  'undefined',
  'user',
  'username',
  'value',
]);

// Fragments no real secret contains by chance (five or more specific characters, or a marker).
const PLACEHOLDER_FRAGMENT =
  /example|changeme|change_me|change-me|placeholder|redacted|replace|insert|dummy|sample|your[-_]?(?:own|real|api|secret|key|token|pass)|fake[-_]|x{5}|\*\*\*|\.\.\.|\u2026|\u2022|12345|a1b2c3|abcdef|qwerty/i;

// Template and variable syntax: the value is filled in elsewhere.
const TEMPLATE_SYNTAX =
  /\$\{|\$\(|\{\{|\}\}|#\{|%\(|%[sdv]|\{\d*\}|^\$[A-Za-z_{]|^%[A-Za-z_]+%$|^<.*>$|^\{[A-Za-z_][\w.]*\}$/;
// Digits and signs standing for letters (`p4ssw0rd`, `s3cr3t`), undone before the word check.
const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** Whether a value holds template syntax or a placeholder marker (`${X}`, `changeme`, `xxxxx`). */
export function hasTemplateOrMarker(value: string): boolean {
  return TEMPLATE_SYNTAX.test(value) || PLACEHOLDER_FRAGMENT.test(value);
}

/** Whether a value is a placeholder, template or stand-in rather than a real secret. */
export function isPlaceholderValue(value: string): boolean {
  if (TEMPLATE_SYNTAX.test(value) || PLACEHOLDER_FRAGMENT.test(value)) return true;
  const lower = value.toLowerCase();
  if (OBVIOUS_WORDS.has(lower.replace(/[^a-z]/g, ''))) return true;
  const unleet = lower.replace(/[013457@$]/g, (char) => LEET[char] ?? char).replace(/[^a-z]/g, '');
  if (OBVIOUS_WORDS.has(unleet)) return true;
  return isOneRepeatedCharacter(value.replace(/[-_.:\s]/g, ''));
}

function isOneRepeatedCharacter(value: string): boolean {
  for (let index = 1; index < value.length; index += 1) {
    if (value.charCodeAt(index) !== value.charCodeAt(0)) return false;
  }
  return true;
}
