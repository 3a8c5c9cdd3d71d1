// How programs are started, from each library's reference: a shell and its script flag, so an
// argument list that starts a shell (`["sh", "-c", script]`) is read as the script it runs; and
// Python's process APIs (https://docs.python.org/3/library/subprocess.html, os "Process
// Management", asyncio "Subprocesses", pty), which take a program (or a command line) first.

/** A shell program as written in a command: `sh`, `/bin/bash`, `/usr/bin/zsh`, `dash`, `ksh`. */
export const SHELL_NAME = String.raw`(?:\/usr)?(?:\/bin\/)?(?:ba|z|da|k)?sh`;

/** Shell programs a list may start with, including Windows' `cmd` and PowerShell. */
export const SHELL_PROGRAM = new RegExp(
  String.raw`^(?:${SHELL_NAME}|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)$`,
  'i',
);

/** The flag after a shell that makes its next argument a script: `-c`, `/c`, `/k`, `-Command`. */
export const SHELL_SCRIPT_FLAG = /^(?:-c|\/[cCkK]|-Command|-command)$/;

/** Interpreters whose first argument is the script they run (a path, or code after `-c`, `-e`, `-m`). */
export const INTERPRETER_PROGRAM =
  /^(?:(?:\/usr)?(?:\/local)?(?:\/bin\/)?(?:python[\d.]*|pypy3?|node|nodejs|deno|ruby|perl|php|lua|Rscript|osascript))$/;

/** Python calls whose first argument is the program or command line they start. */
export const PYTHON_PROCESS_CALLS: readonly string[] = [
  'subprocess.run',
  'subprocess.call',
  'subprocess.check_call',
  'subprocess.check_output',
  'subprocess.Popen',
  'subprocess.getoutput',
  'subprocess.getstatusoutput',
  'os.execl',
  'os.execle',
  'os.execlp',
  'os.execlpe',
  'os.execv',
  'os.execve',
  'os.execvp',
  'os.execvpe',
  'os.spawnl',
  'os.spawnle',
  'os.spawnlp',
  'os.spawnlpe',
  'os.spawnv',
  'os.spawnve',
  'os.spawnvp',
  'os.spawnvpe',
  'os.posix_spawn',
  'os.posix_spawnp',
  'asyncio.create_subprocess_exec',
  'asyncio.create_subprocess_shell',
  'pty.spawn',
];

// Node.js child_process (https://nodejs.org/api/child_process.html): the functions that start a
// program named by their first argument (exec and execSync take a whole shell command line instead).
export const NODE_PROGRAM_CALLS: readonly string[] = [
  'spawn',
  'spawnSync',
  'execFile',
  'execFileSync',
  'fork',
];
