/** Exit codes from the product contract. */
export const EXIT = {
  ok: 0,
  runtime: 1,
  usage: 2,
  failOn: 3,
  partial: 4,
  interrupted: 130,
} as const;

export interface OyErrorOptions {
  hint?: string;
  cause?: unknown;
}

/** The one base error: a message for the user, a hint of what to do, and an exit code. */
export class OyError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, exitCode: number = EXIT.runtime, options: OyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** A bad flag, argument or combination of them. */
export class UsageError extends OyError {
  constructor(message: string, options: OyErrorOptions = {}) {
    super(message, EXIT.usage, options);
  }
}

/** A config file or environment value that cannot be used. */
export class ConfigError extends OyError {
  constructor(message: string, options: OyErrorOptions = {}) {
    super(message, EXIT.usage, options);
  }
}

/** The user interrupted the run. */
export class Cancelled extends OyError {
  constructor(message = 'interrupted', options: OyErrorOptions = {}) {
    super(message, EXIT.interrupted, options);
  }
}
