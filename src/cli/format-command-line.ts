/** Quotes arguments for a POSIX shell, so the report's reproduce line can be pasted as is. */
export function formatCommandLine(argv: readonly string[]): string {
  return argv
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}
