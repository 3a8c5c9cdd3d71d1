import { isRandomToken } from '../define-token-rule.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';
import { takeGluedToken } from '../take-glued-token.js';

// A bot token is the bot's numeric id, a colon, then `AA` and 33 URL-safe characters.
const MIN_BOT_ID_DIGITS = 8;
const MAX_BOT_ID_DIGITS = 10;
const SECRET_PART = /:AA[A-Za-z0-9_-]{33}/y;

/** Telegram bot tokens (`123456789:AA...`), found from the `:AA` after the bot id. */
export const TELEGRAM_BOT_TOKEN_RULE: AnchoredRule = {
  id: 'telegram-bot-token',
  description: 'A Telegram bot token (bot id, then :AA and 33 characters)',
  keywords: [':aa'],
  namesItself: true,
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    let start = at;
    while (start > 0 && at - start < MAX_BOT_ID_DIGITS && isDigit(text.charCodeAt(start - 1))) {
      start -= 1;
    }
    if (at - start < MIN_BOT_ID_DIGITS) return undefined;
    SECRET_PART.lastIndex = at;
    const match = SECRET_PART.exec(text);
    if (match === null) return undefined;
    const end = at + match[0].length;
    return isRandomToken(text.slice(at + 3, end)) ? takeGluedToken(text, start, end) : undefined;
  },
};

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
