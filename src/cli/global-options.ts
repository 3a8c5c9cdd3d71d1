/** Flags every command accepts (README.md "Options", global options), as the parser hands them to a command (see flags/command-table.ts). */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  /** `--no-color` arrives as `color: false`. */
  color?: boolean;
  cwd?: string;
  model?: string;
}
