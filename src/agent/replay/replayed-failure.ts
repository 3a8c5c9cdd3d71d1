import { EXIT } from '../../shared/errors.js';
import { KindedCallFailure } from '../session/describe-call-failure.js';

/**
 * A recorded model call's failure, raised again by a replay at the same call: the loop reports the
 * recorded kind and message (README.md "Replaying a run"), so the run ends as the recorded one did.
 */
export class ReplayedFailure extends KindedCallFailure {
  constructor(kind: string, message: string) {
    super(message, kind, EXIT.runtime);
  }
}
