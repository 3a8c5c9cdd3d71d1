import { describe, expect, it } from 'vitest';
import { MAX_STREAM_BYTES, OutputCapture } from '../../../src/agent/shell/capture-output.js';

function capture(chunks: Buffer[]): ReturnType<OutputCapture['finish']> {
  const output = new OutputCapture();
  for (const chunk of chunks) output.append(chunk);
  return output.finish();
}

describe('OutputCapture', () => {
  it('keeps output up to the cap whole, across chunks', () => {
    const text = 'x'.repeat(MAX_STREAM_BYTES - 3) + 'end';
    const chunks = [Buffer.from(text.slice(0, 70_000)), Buffer.from(text.slice(70_000))];
    expect(capture(chunks)).toEqual({ text, truncated: false });
  });

  it('keeps the head and the tail of longer output, with a marker', () => {
    const chunks = Array.from({ length: 50 }, (_, index) =>
      Buffer.from(String(index % 10).repeat(10_000)),
    );
    const { text, truncated } = capture(chunks);
    expect(truncated).toBe(true);
    expect(text.startsWith('0'.repeat(10_000) + '1')).toBe(true);
    expect(text.endsWith('9'.repeat(10_000))).toBe(true);
    expect(text).toContain(`[${500_000 - MAX_STREAM_BYTES} bytes of output cut; 500000 in all]`);
    expect(text.length).toBeLessThan(MAX_STREAM_BYTES + 100);
  });

  it('starts the tail at a whole UTF-8 character', () => {
    const { text } = capture([Buffer.from('a'.repeat(150_000)), Buffer.from('é'.repeat(60_000))]);
    expect(text.endsWith('é'.repeat(10))).toBe(true);
    expect(text).not.toContain('\uFFFD');
  });

  it('is empty for no output', () => {
    expect(capture([])).toEqual({ text: '', truncated: false });
  });
});
