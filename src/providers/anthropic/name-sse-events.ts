/** SSE field names are lower-case words; a JSON `type` that is not one is not used as an event name. */
const EVENT_NAME = /^[a-z_]+$/;

/**
 * A fetch for the Anthropic SDK that reads data-only streams: some Anthropic-compatible gateways send
 * `data:` lines without `event:` lines, which the SDK skips. Each such event is named by its JSON `type`
 * (the API's own events always carry both, equal), so nothing is lost; named events pass unchanged.
 */
export function createEventNamingFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || response.body === null) return response;
    const body = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(nameSseEvents())
      .pipeThrough(new TextEncoderStream());
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Splits the text into lines (any SSE line ending) and events (a blank line), naming unnamed ones. */
export function nameSseEvents(): TransformStream<string, string> {
  let buffer = '';
  let lines: string[] = [];
  const takeLines = (isFinal: boolean, emit: (text: string) => void) => {
    for (;;) {
      const match = /\r\n|\n|\r/.exec(buffer);
      // A trailing `\r` may be the first half of `\r\n`: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === buffer.length - 1 && !isFinal)) return;
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      if (line !== '') {
        lines.push(line);
        continue;
      }
      emit(renderEvent(lines));
      lines = [];
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += chunk;
      takeLines(false, (text) => controller.enqueue(text));
    },
    flush(controller) {
      takeLines(true, (text) => controller.enqueue(text));
      // An unterminated last event is passed on as it came; SSE parsers drop it either way.
      if (lines.length > 0 || buffer !== '') controller.enqueue([...lines, buffer].join('\n'));
    },
  });
}

function renderEvent(lines: string[]): string {
  const isNamed = lines.some((line) => line === 'event' || line.startsWith('event:'));
  const data = lines
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).replace(/^ /, ''));
  if (isNamed || data.length === 0) return `${lines.join('\n')}\n\n`;
  const name = typeOf(data.join('\n'));
  return `${name === undefined ? '' : `event: ${name}\n`}${lines.join('\n')}\n\n`;
}

function typeOf(json: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    const type = (value as { type?: unknown } | null)?.type;
    return typeof type === 'string' && EVENT_NAME.test(type) ? type : undefined;
  } catch {
    return undefined;
  }
}
