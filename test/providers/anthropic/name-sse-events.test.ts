import { describe, expect, it } from 'vitest';
import { nameSseEvents } from '../../../src/providers/anthropic/name-sse-events.js';

/** The SSE rewrite for data-only gateways: unnamed JSON events get their `type` as name, nothing else changes. */
async function rewrite(chunks: string[]): Promise<string> {
  const source = new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let out = '';
  for await (const text of source.pipeThrough(nameSseEvents())) out += text;
  return out;
}

describe('nameSseEvents', () => {
  it('names a data-only event by its JSON type, across chunk and CRLF boundaries', async () => {
    const out = await rewrite([
      'data: {"type":"message_',
      'start","x":1}\r',
      '\n\r\n',
      'data: {"type":"ping"}\n\n',
    ]);
    expect(out).toBe(
      'event: message_start\ndata: {"type":"message_start","x":1}\n\nevent: ping\ndata: {"type":"ping"}\n\n',
    );
  });

  it('control: a named stream passes through unchanged', async () => {
    const named = 'event: message_start\ndata: {"type":"message_start"}\n\n: comment\n\n';
    expect(await rewrite([named])).toBe(named);
  });

  it('leaves data that is not JSON, or whose type is not a name, unnamed', async () => {
    const text = 'data: [DONE]\n\ndata: {"type":"a b"}\n\ndata: {"no":"type"}\n\n';
    expect(await rewrite([text])).toBe(text);
  });

  it('joins multi-line data before reading the type', async () => {
    expect(await rewrite(['data: {"type":\ndata: "error"}\n\n'])).toBe(
      'event: error\ndata: {"type":\ndata: "error"}\n\n',
    );
  });
});
