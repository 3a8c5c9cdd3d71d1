import type { Approver } from '../../agent/authorize/create-authorizer.js';
import type { Interaction } from '../../agent/authorize/interaction.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import { APPROVAL_QUESTION, parseApprovalAnswer, renderApproval } from './render-approval.js';

/** What the approver and the ask tool need: the editor to read the answer, stderr to show the question. */
export interface PromptChannel {
  editor: LineEditor;
  stderr: NodeJS.WritableStream;
  colors: Colors;
  /** Before the question: stops the spinner and ends the answer's line. Returns what to call once answered. */
  pause(): () => void;
}

/** Shows the preview on stderr and asks; no answer (Ctrl-C, Ctrl-D, empty) is no. */
export function createChatApprover(channel: PromptChannel): Approver {
  return async (request) => {
    const resume = channel.pause();
    try {
      channel.stderr.write(renderApproval(request, channel.colors));
      return parseApprovalAnswer(await channel.editor.ask(APPROVAL_QUESTION));
    } finally {
      resume();
    }
  };
}

/** Answers the `ask` tool: the model's question and numbered choices on stderr, shown inertly; a choice's number picks it. */
export function createAskUser(channel: PromptChannel): Interaction['ask'] {
  return async (question, choices) => {
    const resume = channel.pause();
    try {
      return await askQuestion(channel, question, choices);
    } finally {
      resume();
    }
  };
}

async function askQuestion(
  channel: PromptChannel,
  question: string,
  choices: readonly string[],
): Promise<string> {
  {
    const c = channel.colors;
    channel.stderr.write(`${c.bold('?')} ${neutralizeControl(question)}\n`);
    choices.forEach((choice, index) =>
      channel.stderr.write(
        `  ${index + 1}. ${neutralizeControl(choice, { lineBreaks: 'show' })}\n`,
      ),
    );
    const answer = await channel.editor.ask(
      choices.length === 0 ? 'answer: ' : `answer (1-${choices.length} or your own words): `,
    );
    if (answer === null || answer.trim() === '') return '(the user gave no answer)';
    const picked = /^\d+$/u.test(answer.trim()) ? choices[Number(answer.trim()) - 1] : undefined;
    return picked ?? answer.trim();
  }
}
