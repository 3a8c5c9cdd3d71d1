import type { CategoryRules, HintRule } from '../hint-rule.js';
import { perLanguage } from '../matchers/per-language.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './command-execution.examples.json' with { type: 'json' };
import { escapeRegExp } from '../escape-reg-exp.js';
import { NODE_PROGRAM_CALLS, PYTHON_PROCESS_CALLS, SHELL_NAME } from '../knowledge/processes.js';

// A command string visibly built from parts: interpolation, concatenation or formatting.
const BUILT_COMMAND =
  /\$\{|#\{|\$"|\b[fF]["']|["'`]\s*\+|\+\s*[\w$(]|["']\s*%\s*[\w(]|\.format\s*\(|\bSprintf\s*\(|\bString\.format\s*\(/;

const NODE_EXEC_INTERPOLATION: HintRule = {
  id: 'cmd-exec/node-exec-interpolation',
  category: 'command-execution',
  severity: 'high',
  description:
    'child_process.exec or execSync given a command built by template interpolation or concatenation.',
  message:
    'Shell command built from interpolated or concatenated values passed to exec; verify no caller-controlled value reaches it (prefer execFile with an argument array).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['exec'],
      pattern:
        /(?:\b(?:child_?[pP]rocess|childProcess|cp|shelljs|shell)\.|(?<![\w$.]))exec(?:Sync)?\s*\(\s*(?:`[^`]*\$\{|(["'])(?:(?!\1)[^\\]|\\.)*\1\s*\+|[\w$.]+\s*\+)|\.exec(?:Sync)?\s*\(\s*`[^`]*\$\{|\bexecSync\s*\(\s*(?:(["'])(?:(?!\2)[^\\]|\\.)*\2\s*\+|[\w$.]+\s*\+)/,
    },
    {
      kind: 'request-sink',
      // A command held in a variable (or passed to a promisified exec) that carries request input.
      languages: ['js'],
      isStringScanned: false,
      keywords: ['exec'],
      pattern:
        /(?:\b(?:child_?[pP]rocess|childProcess|cp|shelljs|shell)\.|(?<![\w$.]))exec(?:Sync|Async)?\s*\(/,
      input: 'js',
      argument: 'first',
    },
  ],
};

const NODE_SPAWN_SHELL: HintRule = {
  id: 'cmd-exec/node-spawn-shell',
  category: 'command-execution',
  severity: 'medium',
  description:
    'spawn, execFile or execa called with the `shell` option, which runs the command through a shell.',
  message:
    'Process started with `shell` enabled, so its arguments are parsed by a shell; verify no caller-controlled value reaches the command or its arguments.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['shell'],
      pattern: /\bshell\s*:\s*(?:true\b|["'`]\S)/,
      near: {
        before: 6,
        after: 0,
        requires:
          /\b(?:spawn|spawnSync|execFile|execFileSync|fork|execa|execaSync|crossSpawn)\s*\(/,
      },
      escalate: { severity: 'high', near: { pattern: BUILT_COMMAND, before: 6, after: 0 } },
    },
  ],
};

// A shell and its script flag written out in the call: `'sh', ['-c', …]`, `"cmd", "/c …"`.
const SHELL_C_LITERAL = new RegExp(
  String.raw`(["'])${SHELL_NAME}\1\s*,\s*(?:\[\s*|new\s+String\[\]\s*\{\s*|(?:arrayOf|listOf)\(\s*)?(["'])-c\2|(["'])cmd(?:\.exe)?\3\s*,\s*(?:\[\s*)?(["'])\/[cCkK][\s"']`,
);

const NODE_REQUEST_PROGRAM: HintRule = {
  id: 'cmd-exec/node-request-program',
  category: 'command-execution',
  severity: 'high',
  description:
    'spawn, execFile or fork (and their Sync forms) whose program or module path carries request input.',
  message:
    'The program this call starts carries request input, so a client chooses what runs; start a fixed program and pass the value as one argument.',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['js'],
      input: 'js',
      isStringScanned: false,
      // The program, or a shell's script from its argument list (`spawn('sh', args)`, `args` built above).
      argument: 'argv',
      keywords: NODE_PROGRAM_CALLS.map((name) => name.toLowerCase()),
      pattern: new RegExp(
        String.raw`(?:\b(?:child_?[pP]rocess|childProcess|cp)\.|(?<![\w$.]))(?:${NODE_PROGRAM_CALLS.join('|')})\s*\(`,
      ),
      // A literal `'sh', ['-c', …]` list is the shell-c rule's.
      unless: SHELL_C_LITERAL,
    },
  ],
};

const PYTHON_SHELL_TRUE: HintRule = {
  id: 'cmd-exec/python-shell-true',
  category: 'command-execution',
  severity: 'medium',
  description: 'subprocess called with shell=True.',
  message:
    'subprocess call with shell=True runs the command through a shell; verify no caller-controlled value is part of it (pass an argument list without shell=True).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['python'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['shell'],
      pattern: /\bshell\s*=\s*True\b/,
      near: {
        before: 5,
        after: 0,
        requires:
          /\bsubprocess\.|\b(?:Popen|check_output|check_call|getoutput|getstatusoutput|run|call)\s*\(/,
      },
      escalate: { severity: 'high', near: { pattern: BUILT_COMMAND, before: 5, after: 0 } },
    },
  ],
};

const PYTHON_OS_SYSTEM: HintRule = {
  id: 'cmd-exec/python-os-system',
  category: 'command-execution',
  severity: 'medium',
  description: 'os.system, os.popen or the commands module, which run a string through a shell.',
  message:
    'Command string run through a shell (os.system / os.popen); verify no caller-controlled value is part of it.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['python'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['os.system', 'os.popen', 'commands.get'],
      pattern: /\bos\.(?:system|popen[234]?)\s*\(|\bcommands\.get(?:status)?output\s*\(/,
      escalate: { severity: 'high', onLine: BUILT_COMMAND },
    },
  ],
};

const PYTHON_PROCESS_PROGRAM: HintRule = {
  id: 'cmd-exec/python-request-program',
  category: 'command-execution',
  severity: 'high',
  description:
    'A Python process call (subprocess, os.exec*, os.spawn*, asyncio) whose program, command line or shell script carries request input.',
  message:
    'The program or command this call runs carries request input, so a client chooses what runs; run a fixed program and pass the value as one argument.',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['python'],
      input: 'python',
      isStringScanned: false,
      argument: 'command',
      keywords: [
        'subprocess.',
        'os.exec',
        'os.spawn',
        'os.posix_spawn',
        'create_subprocess',
        'pty.spawn',
      ],
      pattern: new RegExp(
        String.raw`\b(?:${PYTHON_PROCESS_CALLS.map(escapeRegExp).join('|')})\s*\(`,
      ),
      // A shell=True call, or a literal `"sh", "-c"` list, is another rule's.
      unless: /\bshell\s*=\s*True\b|(["'])(?:-c|\/[cCkK])\1/,
    },
  ],
};

const JAVA_RUNTIME_EXEC: HintRule = {
  id: 'cmd-exec/java-runtime-exec',
  category: 'command-execution',
  severity: 'medium',
  description:
    'Runtime.getRuntime().exec of a command string (tokenised, program first) or of an array whose program or shell script is not fixed.',
  message:
    'Runtime.exec runs a command; verify no caller-controlled value is part of the command string (use ProcessBuilder with an argument list).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['java'],
      isStringScanned: false,
      // exec(String[]) starts cmdarray[0] with the rest as its arguments, as ProcessBuilder does (Java SE 21
      // Runtime.exec): of an array, the program or a shell's script is the command; a string is all command.
      argument: 'command',
      keywords: ['exec', 'getruntime', 'runtime'],
      pattern: /\bgetRuntime\s*\(\s*\)\s*\.exec\s*\(|\.exec\s*\(/,
      fileRequires: /\bRuntime\b/,
      escalate: { severity: 'high', onLine: BUILT_COMMAND },
    },
  ],
};

const JAVA_PROCESS_BUILDER: HintRule = {
  id: 'cmd-exec/java-process-builder',
  category: 'command-execution',
  severity: 'high',
  description:
    'A ProcessBuilder whose program, or whose shell or interpreter script, carries request input.',
  message:
    'ProcessBuilder runs a command built from request input; verify the program is fixed and no argument reaches a shell (`sh -c`, `cmd /c`).',
  // The program, or a shell's or interpreter's script: arguments handed to a fixed program are data.
  matchers: perLanguage(['java'], {
    isStringScanned: false,
    keywords: ['processbuilder', 'command'],
    pattern: /\bnew\s+(?:java\.lang\.)?ProcessBuilder\s*\(|\.command\s*\(/,
    fileRequires: /\bProcessBuilder\b/,
    argument: 'argv',
  }),
};

const SHELL_C_INVOCATION: HintRule = {
  id: 'cmd-exec/shell-c-invocation',
  category: 'command-execution',
  severity: 'medium',
  description:
    'A process started as `sh -c <string>` or `cmd /c <string>`, which hands a whole string to a shell.',
  message:
    'A shell is started with `-c` (or `cmd /c`) and a command string; verify no caller-controlled value is part of that string.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js', 'python', 'java', 'csharp', 'ruby', 'php', 'perl'],
      isStringScanned: false,
      argument: 'call',
      // `c` followed by a quote, at a word start: the `-c` or `/c` argument (a punctuation-led keyword would be tried at every quote).
      keywords: ['c"', "c'"],
      pattern: SHELL_C_LITERAL,
      escalate: { severity: 'high', onLine: BUILT_COMMAND },
    },
  ],
};

// `exec.Command("sh", "-c", …)` written out: judged on all its arguments by the first matcher below.
const GO_SHELL_LITERAL = new RegExp(
  String.raw`\bexec\.Command(?:Context)?\s*\(\s*(?:\w+\s*,\s*)?(?:"${SHELL_NAME}"\s*,\s*"-c"|"cmd(?:\.exe)?"\s*,\s*"\/[cC]")`,
);

const GO_SHELL_COMMAND: HintRule = {
  id: 'cmd-exec/go-shell-command',
  category: 'command-execution',
  severity: 'high',
  description: 'exec.Command("sh", "-c", ...) in Go, which hands a whole string to a shell.',
  message:
    'exec.Command starts a shell with `-c`; verify no caller-controlled value is part of the command string (run the program directly with separate arguments).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['go'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['c"'],
      pattern: GO_SHELL_LITERAL,
    },
    // What it runs (https://pkg.go.dev/os/exec#Command): the program named by the request, or a
    // shell's or interpreter's script, in the arguments or in a slice spread into them.
    ...perLanguage(['go'], {
      isStringScanned: false,
      keywords: ['exec.command'],
      pattern: /\bexec\.Command\s*\(|\bexec\.CommandContext\s*\(\s*[^,()]+(?:\([^()]*\))?\s*,/,
      unless: GO_SHELL_LITERAL,
      argument: 'argv',
    }),
  ],
};

const RUBY_BACKTICKS: HintRule = {
  id: 'cmd-exec/ruby-backticks',
  category: 'command-execution',
  severity: 'high',
  description: 'Ruby backticks or %x() with string interpolation.',
  message:
    'Shell command in backticks or %x() interpolates a value; verify it cannot carry shell metacharacters (use system with separate arguments or Open3 with an argument list).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['ruby'],
      isStringScanned: false,
      argument: 'expression',
      keywords: ['`', '%x'],
      pattern: /`[^`]*#\{[^`]*`|%x[({[|!][^\n]*#\{/,
    },
  ],
};

const RUBY_SYSTEM_INTERPOLATION: HintRule = {
  id: 'cmd-exec/ruby-system-interpolation',
  category: 'command-execution',
  severity: 'high',
  description:
    'system, exec, spawn, IO.popen, Open3 or open("|...") given one interpolated command string.',
  message:
    'A single interpolated command string is run by a shell; verify the value cannot carry shell metacharacters (pass the program and arguments separately).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['ruby'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['system', 'exec', 'spawn', 'kernel', 'io.popen', 'open3', 'open'],
      pattern:
        /(?:(?<![\w.:])(?:system|exec|spawn)|\bKernel\.(?:system|exec|spawn)|\bIO\.popen|\bOpen3\.\w+)\s*\(?\s*"[^"]*#\{|(?<![\w.])open\s*\(?\s*"\|/,
    },
    // What a program-and-arguments call runs (https://docs.ruby-lang.org/en/3.3/Kernel.html#method-i-system,
    // Process.spawn, IO.popen's array, Open3): a shell's script (`system("sh", "-c", s)`) or the
    // program the request names; an env hash first (`system({"A" => "b"}, "sh", "-c", s)`) is skipped.
    ...perLanguage(['ruby'], {
      isStringScanned: false,
      keywords: ['system', 'exec', 'spawn', 'io.popen', 'open3'],
      pattern:
        /(?:(?<![\w.:])(?:system|exec|spawn)|\b(?:Kernel|Process)\.(?:system|exec|spawn)|\bIO\.popen|\bOpen3\.(?:popen[23]e?|popen2e|capture[23]e?|capture2e|pipeline\w*))\b\s*\(?\s*(?:\{[^{}]*\}\s*,\s*)?(?=\[|["'\w*])/,
      argument: 'argv',
    }),
  ],
};

const PERL_SHELL_INTERPOLATION: HintRule = {
  id: 'cmd-exec/perl-shell-interpolation',
  category: 'command-execution',
  severity: 'high',
  description:
    'Perl backticks, qx, system or exec with an interpolated string, or a two-argument pipe open.',
  message:
    'Shell command interpolates a variable (backticks, qx, system, exec or a pipe open); verify it cannot carry shell metacharacters (use the list form).',
  matchers: [
    {
      kind: 'code',
      languages: ['perl'],
      isStringScanned: false,
      keywords: ['`', 'qx', 'system', 'exec', 'open'],
      pattern:
        /`[^`]*\$[\w{][^`]*`|\bqx\s*[({[/|!'"][^\n]*\$[\w{]|\b(?:system|exec)\s*\(?\s*"[^"]*\$[\w{]|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:"\s*\||"[^"]*\|\s*"|'\s*\||'[^']*\|\s*')/,
    },
  ],
};

const PHP_SHELL_FUNCTION: HintRule = {
  id: 'cmd-exec/php-shell-function',
  category: 'command-execution',
  severity: 'medium',
  description: 'PHP shell_exec, exec, system, passthru, proc_open, popen or pcntl_exec.',
  message:
    'PHP runs a shell command here; verify no request or user value reaches it unescaped (escapeshellarg on every argument, or avoid the shell).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['php'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['shell_exec', 'exec', 'system', 'passthru', 'proc_open', 'popen', 'pcntl_exec'],
      pattern: /(?<![\w>:$])(?:shell_exec|exec|system|passthru|proc_open|popen|pcntl_exec)\s*\(/,
      unless: /\bfunction\s+(?:shell_exec|exec|system|passthru|proc_open|popen)\b/,
      escalate: { severity: 'high', onLine: /\(\s*[^)]*\$(?:_|\w)/ },
    },
  ],
};

const PHP_BACKTICKS: HintRule = {
  id: 'cmd-exec/php-backticks',
  category: 'command-execution',
  severity: 'high',
  description: 'PHP backticks (the shell-execution operator) with a variable inside.',
  message:
    'PHP backticks run a shell command that interpolates a variable; verify it is escaped with escapeshellarg or avoid the shell.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['php'],
      isStringScanned: false,
      argument: 'expression',
      keywords: ['`'],
      pattern: /`[^`]*\$\w[^`]*`/,
    },
  ],
};

// Laravel's Process facade runs a string through a shell and an array without one
// (https://laravel.com/docs/processes); Symfony's Process::fromShellCommandline always uses a
// shell, `new Process([...])` never: there the program, the list's first item, is what matters.
const PHP_PROCESS_COMMAND: HintRule = {
  id: 'cmd-exec/php-process-command',
  category: 'command-execution',
  severity: 'high',
  description:
    'Laravel Process::run/start with a command string, Symfony Process::fromShellCommandline, or a Symfony Process whose program carries request input.',
  message:
    'A command line built from request data runs through a shell (or the request names the program); pass a fixed program and the values as separate array items.',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['php'],
      input: 'php',
      isStringScanned: false,
      argument: 'first',
      keywords: ['process::'],
      pattern: /\bProcess::(?:run|start|fromShellCommandline)\s*\(/,
      unless: /\bProcess::(?:run|start)\s*\(\s*\[/,
    },
    {
      kind: 'request-sink',
      languages: ['php'],
      input: 'php',
      isStringScanned: false,
      argument: 'command',
      keywords: ['process'],
      pattern: /\bnew\s+(?:\\?Symfony\\Component\\Process\\)?Process\s*\(/,
    },
  ],
};

const DOTNET_PROCESS_START: HintRule = {
  id: 'cmd-exec/dotnet-process-start',
  category: 'command-execution',
  severity: 'medium',
  description: 'Process.Start or a new ProcessStartInfo in .NET.',
  message:
    'A process is started here; verify no caller-controlled value reaches the file name or argument string (use ArgumentList).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['csharp'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['process.start', 'processstartinfo'],
      pattern: /\bProcess\.Start\s*\(|\bnew\s+ProcessStartInfo\s*\(/,
      escalate: { severity: 'high', onLine: BUILT_COMMAND },
    },
  ],
};

export const COMMAND_EXECUTION_CATEGORY: CategoryRules = {
  category: 'command-execution',
  label: 'Command execution',
  sinkKind: 'shell',
  rules: [
    NODE_EXEC_INTERPOLATION,
    NODE_SPAWN_SHELL,
    NODE_REQUEST_PROGRAM,
    PYTHON_SHELL_TRUE,
    PYTHON_OS_SYSTEM,
    PYTHON_PROCESS_PROGRAM,
    JAVA_RUNTIME_EXEC,
    JAVA_PROCESS_BUILDER,
    SHELL_C_INVOCATION,
    GO_SHELL_COMMAND,
    RUBY_BACKTICKS,
    RUBY_SYSTEM_INTERPOLATION,
    PERL_SHELL_INTERPOLATION,
    PHP_SHELL_FUNCTION,
    PHP_BACKTICKS,
    PHP_PROCESS_COMMAND,
    DOTNET_PROCESS_START,
  ],
  examples: readExamples(EXAMPLES, 'command-execution.examples.json'),
};
