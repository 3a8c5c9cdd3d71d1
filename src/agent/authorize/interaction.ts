import type { Approver } from './create-authorizer.js';

/**
 * Someone who can answer: present exactly when a person is at the keyboard (chat), absent in `oy run`.
 * Its presence is the one signal: the policy may ask, the `ask` tool is offered, and approvals are prompted.
 */
export interface Interaction {
  /** Shows a call the policy marked `ask` and returns the user's answer. */
  approve: Approver;
  /** The `ask` tool: the model's question and choices, the user's answer. */
  ask(question: string, choices: readonly string[]): Promise<string>;
}
