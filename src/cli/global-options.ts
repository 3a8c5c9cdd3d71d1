/** Flags every command accepts (product.md), as cac hands them to an action. */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  /** cac turns `--no-color` into `color: false`. */
  color?: boolean;
  cwd?: string;
  model?: string;
}
