import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { ToolFailure } from './tool-types.js';

const schema = z
  .object({
    question: z.string().min(1).describe('The question, complete enough to answer on its own.'),
    choices: z
      .array(z.string().min(1))
      .max(20)
      .default([])
      .describe('Suggested answers; the user may still answer freely. Empty for an open question.'),
  })
  .strict();

export const askTool = defineTool({
  name: 'ask',
  kind: 'ask',
  description: [
    'Ask the user a question and wait for the answer; returns {answer}.',
    'Only for real ambiguity you cannot settle from the code. Works only in interactive runs (oy chat);',
    'elsewhere it is refused, so decide yourself and say what you assumed.',
  ].join(' '),
  schema,
  intend() {
    return { action: { kind: 'ask', tool: 'ask' }, target: undefined };
  },
  plan(args) {
    const listed = args.choices.length === 0 ? '' : `\nchoices: ${args.choices.join(' | ')}`;
    return { preview: `${args.question}${listed}`, data: undefined };
  },
  async execute(args, context) {
    // decide() refuses the ask tool when no one can answer; this only keeps the type honest.
    if (context.interaction === undefined) {
      throw new ToolFailure(
        'ask works only in interactive runs (oy chat); decide without asking and say what you assumed',
      );
    }
    const answer = await context.interaction.ask(args.question, args.choices);
    return { answer };
  },
});
