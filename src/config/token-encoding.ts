/** The tiktoken encodings oy can count with: config vocabulary (`audit.encoding`), counted by audit/tokens. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

export const TOKEN_ENCODINGS: readonly TokenEncoding[] = ['o200k_base', 'cl100k_base'];

export const DEFAULT_TOKEN_ENCODING: TokenEncoding = 'o200k_base';
