/** The prompt of `oy chat`, and of the second and later lines of one message. */
export const CHAT_PROMPTS = { prompt: 'oy> ', continuationPrompt: '... ' } as const;
