import { UsageError } from '../../shared/errors.js';

/** The task: the words given, else stdin when it is not a terminal; empty is a usage error. */
export async function readPrompt(
  words: readonly string[],
  stdin: NodeJS.ReadStream,
): Promise<string> {
  let prompt = words.join(' ');
  if (words.length === 0 && !stdin.isTTY) prompt = await readAll(stdin);
  if (prompt.trim() === '') {
    throw new UsageError('no prompt: give the task as arguments or on stdin', {
      hint: 'oy run "explain what src/main.ts does", or echo "..." | oy run',
    });
  }
  return prompt.trim();
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
