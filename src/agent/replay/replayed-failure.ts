import { EXIT, OyError } from '../../shared/errors.js';

/**
 * A recorded model call's failure, raised again by a replay at the same call: the loop reports the
 * recorded kind and message (README.md "Replaying a run"), so the run ends as the recorded one did.
 */
export class ReplayedFailure extends OyError {
  readonly kind: string;

  constructor(kind: string, message: string) {
    super(message, EXIT.runtime);
    this.kind = kind;
  }
}
