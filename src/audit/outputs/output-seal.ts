import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How a document carries its seal: a last Markdown line, or a last key of the top-level JSON object. */
export type SealShape = 'markdown' | 'json' | 'sarif';

/**
 * The seal replaces `cut` (the end of the document as rendered) with `before`, the MAC in hex and
 * `after`. JSON keeps its shape: `"oySeal"` is the last key; SARIF allows no new top-level key, so
 * it goes in the log's `properties` bag.
 */
const SHAPES: Readonly<Record<SealShape, { cut: string; before: string; after: string }>> = {
  markdown: { cut: '', before: '<!-- oy-seal: ', after: ' -->\n' },
  json: { cut: '\n}\n', before: ',\n  "oySeal": "', after: '"\n}\n' },
  sarif: { cut: '\n}\n', before: ',\n  "properties": {\n    "oySeal": "', after: '"\n  }\n}\n' },
};

const MAC_HEX_LENGTH = 64;
/** Bound into every MAC, so a seal cannot be lifted from another use of the same key. */
const DOMAIN = 'oy-output-seal/v1\0';
/** The longest tail a sealed document ends with: enough bytes to read to find a seal. */
export const SEAL_TAIL_BYTES = Math.max(
  ...Object.values(SHAPES).map(
    (shape) => shape.before.length + MAC_HEX_LENGTH + shape.after.length,
  ),
);

/** What every seal's tail holds: a cheap first test before any MAC is computed. */
export const SEAL_MARK = /oy-seal: |"oySeal": /;

/** A key for runs that were given none (tests, an unwritable state folder): this process only. */
const PROCESS_KEY = randomBytes(32);

/**
 * Seals a report, ledger or baseline oy is about to write: an HMAC-SHA256 of its full text under the
 * user's own key (README.md "oy audit"). Only a run with the same key can recognise it, so a
 * repository cannot pass a file of its own off as oy's output.
 */
export function sealOutput(text: string, shape: SealShape, key: Uint8Array = PROCESS_KEY): string {
  const { cut, before, after } = SHAPES[shape];
  if (!text.endsWith(cut))
    throw new Error(`cannot seal a ${shape} document that does not end in its usual way`);
  return `${text.slice(0, text.length - cut.length)}${before}${mac(Buffer.from(text), key)}${after}`;
}

/** Whether this is exactly a document oy sealed with this key: nothing added, removed or changed. */
export function hasOutputSeal(
  content: string | Uint8Array,
  key: Uint8Array = PROCESS_KEY,
): boolean {
  // Most files end with no seal: decide that from the last characters, before encoding anything.
  if (typeof content === 'string' && !SEAL_MARK.test(content.slice(-SEAL_TAIL_BYTES))) return false;
  const buffer =
    typeof content === 'string'
      ? Buffer.from(content)
      : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const tail = buffer.subarray(Math.max(0, buffer.length - SEAL_TAIL_BYTES)).toString('latin1');
  for (const { cut, before, after } of Object.values(SHAPES)) {
    if (!tail.endsWith(after)) continue;
    const macEnd = tail.length - after.length;
    const macStart = macEnd - MAC_HEX_LENGTH;
    if (macStart < before.length || tail.slice(macStart - before.length, macStart) !== before)
      continue;
    const found = tail.slice(macStart, macEnd);
    if (!/^[0-9a-f]+$/.test(found)) continue;
    const bodyEnd = buffer.length - (tail.length - macStart) - before.length;
    const original = Buffer.concat([buffer.subarray(0, bodyEnd), Buffer.from(cut)]);
    const expected = Buffer.from(mac(original, key), 'latin1');
    if (timingSafeEqual(expected, Buffer.from(found, 'latin1'))) return true;
  }
  return false;
}

function mac(original: Uint8Array, key: Uint8Array): string {
  return createHmac('sha256', key).update(DOMAIN).update(original).digest('hex');
}
