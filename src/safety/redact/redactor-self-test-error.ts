import { EXIT, OyError } from '../../shared/errors.js';

/** The redactor failed its start-up self-test: nothing may be sent to a provider. */
export class RedactorSelfTestError extends OyError {
  /** The rule whose canary got through (or that has no canary). */
  readonly ruleId: string;

  constructor(ruleId: string, problem: string) {
    super(`redactor self-test failed: rule ${ruleId} ${problem}`, EXIT.runtime, {
      hint: 'Nothing was sent. This is a bug in oy; please report it with the rule id.',
    });
    this.ruleId = ruleId;
  }
}
