/** The language families the index has rules for; a file may belong to several (a `.vue` file is script and template). */
export const LANGUAGES = [
  'js',
  'python',
  'ruby',
  'php',
  'java',
  'go',
  'csharp',
  'perl',
  'shell',
  'template',
  'workflow',
] as const;

export type Language = (typeof LANGUAGES)[number];

const JS: readonly Language[] = ['js'];
const SCRIPT_AND_TEMPLATE: readonly Language[] = ['js', 'template'];
const TEMPLATE: readonly Language[] = ['template'];
const SHELL: readonly Language[] = ['shell'];
const BLADE: readonly Language[] = ['php', 'template'];

const LANGUAGES_BY_EXTENSION: ReadonlyMap<string, readonly Language[]> = new Map([
  ...['js', 'jsx', 'ts', 'tsx', 'mjs', 'cjs', 'mts', 'cts'].map((ext) => [ext, JS] as const),
  ...['vue', 'svelte', 'astro', 'html', 'htm', 'xhtml'].map(
    (ext) => [ext, SCRIPT_AND_TEMPLATE] as const,
  ),
  ...['hbs', 'handlebars', 'mustache', 'ejs', 'njk', 'nunjucks', 'jinja', 'jinja2', 'j2'].map(
    (ext) => [ext, TEMPLATE] as const,
  ),
  ...['twig', 'liquid', 'gohtml', 'tmpl', 'pug', 'jade'].map((ext) => [ext, TEMPLATE] as const),
  ...['py', 'pyw'].map((ext) => [ext, ['python']] as const),
  ...['rb', 'rake', 'gemspec', 'ru'].map((ext) => [ext, ['ruby']] as const),
  ['erb', ['ruby', 'template']],
  ...['php', 'phtml', 'php3', 'php4', 'php5', 'php7', 'php8'].map((ext) => [ext, ['php']] as const),
  ...['java', 'kt', 'kts', 'groovy', 'scala'].map((ext) => [ext, ['java']] as const),
  ['jsp', ['java', 'template']],
  ['go', ['go']],
  ...['cs', 'csx'].map((ext) => [ext, ['csharp']] as const),
  ...['cshtml', 'razor'].map((ext) => [ext, ['csharp', 'template']] as const),
  ...['pl', 'pm', 'cgi', 'psgi'].map((ext) => [ext, ['perl']] as const),
  ...['sh', 'bash', 'zsh', 'ksh', 'dash', 'bats', 'mk', 'dockerfile'].map(
    (ext) => [ext, SHELL] as const,
  ),
]);

// Build files whose recipes are shell commands.
const SHELL_FILE_NAMES = new Set([
  'dockerfile',
  'containerfile',
  'makefile',
  'gnumakefile',
  'justfile',
]);
const RUBY_FILE_NAMES = new Set(['rakefile', 'gemfile', 'guardfile', 'capfile', 'vagrantfile']);
const TYPE_DECLARATION = /\.d\.[mc]?ts$/;
const WORKFLOW_PATH = /(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/i;
// A composite action's metadata runs `run:` steps exactly like a workflow.
const ACTION_METADATA_PATH = /(?:^|\/)action\.ya?ml$/i;

const INTERPRETERS: readonly (readonly [RegExp, Language])[] = [
  [/\b(?:node|nodejs|deno|bun|tsx|ts-node)\b/, 'js'],
  [/\bpython[\d.]*\b/, 'python'],
  [/\bruby\b/, 'ruby'],
  [/\bperl\b/, 'perl'],
  [/\bphp\b/, 'php'],
  [/(?:\/|\s)(?:ba|z|k|da|a)?sh\b/, 'shell'],
];
// Long enough for `#!/usr/bin/env -S node --some-flag`.
const SHEBANG_MAX_CHARS = 200;

/** The languages whose rules apply to a file, chosen by its path and, for a file without an extension, its `#!` line. */
export function detectLanguages(filePath: string, text: string): readonly Language[] {
  const normalized = filePath.replaceAll('\\', '/');
  if (WORKFLOW_PATH.test(normalized) || ACTION_METADATA_PATH.test(normalized)) {
    return ['workflow', 'shell'];
  }
  const name = normalized.slice(normalized.lastIndexOf('/') + 1).toLowerCase();
  // Type declarations hold no code that runs: only the language-agnostic rules apply.
  if (TYPE_DECLARATION.test(name)) return [];
  // A Laravel Blade view is PHP and a template (`{!! $html !!}` prints unescaped).
  if (name.endsWith('.blade.php')) return BLADE;
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const byExtension = LANGUAGES_BY_EXTENSION.get(name.slice(dot + 1));
    if (byExtension !== undefined) return byExtension;
  }
  const stem = dot > 0 ? name.slice(0, dot) : name;
  if (SHELL_FILE_NAMES.has(name) || SHELL_FILE_NAMES.has(stem)) return SHELL;
  if (RUBY_FILE_NAMES.has(name)) return ['ruby'];
  if (dot <= 0 && text.startsWith('#!')) return languageOfShebang(text);
  return [];
}

function languageOfShebang(text: string): readonly Language[] {
  const end = text.indexOf('\n');
  const shebang = text.slice(0, end === -1 ? SHEBANG_MAX_CHARS : Math.min(end, SHEBANG_MAX_CHARS));
  for (const [pattern, language] of INTERPRETERS) {
    if (pattern.test(shebang)) return [language];
  }
  return [];
}
