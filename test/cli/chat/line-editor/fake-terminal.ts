import { PassThrough } from 'node:stream';

/**
 * A strict model of the screen: the sequences the editor may use are interpreted, anything else
 * throws, so stray escape codes fail the test that produced them. Every cell is one column wide.
 */
export class ScreenModel {
  readonly rows: string[][] = [[]];
  row = 0;
  col = 0;
  private isWrapPending = false;

  constructor(readonly columns: number) {}

  write(data: string): void {
    let index = 0;
    while (index < data.length) {
      const char = data[index] ?? '';
      if (char === '\x1b') {
        index = this.escape(data, index);
        continue;
      }
      if (char === '\r') [this.col, this.isWrapPending] = [0, false];
      else if (char === '\n') this.moveTo(this.row + 1, this.col);
      else if (char.charCodeAt(0) < 0x20 || char === '\x7f') {
        throw new Error(`unexpected control character ${JSON.stringify(char)}`);
      } else this.put(char);
      index++;
    }
  }

  /** The screen's text, trailing blanks trimmed, trailing empty rows dropped. */
  lines(): string[] {
    const lines = this.rows.map((cells) => cells.join('').trimEnd());
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }

  private put(char: string): void {
    if (this.isWrapPending) this.moveTo(this.row + 1, 0);
    const cells = this.cellsOf(this.row);
    while (cells.length < this.col) cells.push(' ');
    cells[this.col] = char;
    if (this.col === this.columns - 1) this.isWrapPending = true;
    else this.col++;
  }

  private escape(data: string, start: number): number {
    const match = /^\[(\??)([0-9;]*)([A-Za-z])/.exec(data.slice(start + 1));
    if (match === null) throw new Error(`unexpected escape ${JSON.stringify(data.slice(start))}`);
    const [whole, privateMark, params, final] = match;
    const count = Number(params || '1');
    if (privateMark === '?') {
      if (params !== '2004' || (final !== 'h' && final !== 'l')) throw new Error(`bad ${whole}`);
    } else if (final === 'A') this.moveTo(Math.max(0, this.row - count), this.col);
    else if (final === 'B') this.moveTo(this.row + count, this.col);
    else if (final === 'C') this.moveTo(this.row, Math.min(this.columns - 1, this.col + count));
    else if (final === 'D') this.moveTo(this.row, Math.max(0, this.col - count));
    else if (final === 'J' && (params === '' || params === '0')) {
      this.cellsOf(this.row).splice(this.col);
      this.rows.splice(this.row + 1);
    } else if (final === 'J' && params === '2') this.rows.splice(0, this.rows.length, []);
    else if (final === 'H' && params === '') this.moveTo(0, 0);
    else throw new Error(`unexpected sequence ${JSON.stringify(whole)}`);
    return start + 1 + whole.length;
  }

  private moveTo(row: number, col: number): void {
    this.row = row;
    this.col = col;
    this.isWrapPending = false;
    this.cellsOf(row);
  }

  private cellsOf(row: number): string[] {
    while (this.rows.length <= row) this.rows.push([]);
    return this.rows[row] ?? [];
  }
}

export interface FakeTerminal {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  screen: ScreenModel;
  written: string[];
  rawModes: boolean[];
  /** Sends keys and lets the editor process them. */
  type(keys: string): Promise<void>;
}

export function createFakeTerminal(columns = 80): FakeTerminal {
  const stream = new PassThrough();
  const rawModes: boolean[] = [];
  const written: string[] = [];
  const screen = new ScreenModel(columns);
  Object.assign(stream, {
    isTTY: true,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      return stream;
    },
  });
  const output = {
    isTTY: true,
    columns,
    write(chunk: string) {
      written.push(chunk);
      screen.write(chunk);
      return true;
    },
    // No resizes here: the tmux tests resize a real terminal.
    on: () => output,
    off: () => output,
  };
  return {
    input: stream as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    screen,
    written,
    rawModes,
    async type(keys) {
      stream.write(keys);
      await settle();
    },
  };
}

/** Lets stream events and queued redraws run. */
export async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

export const KEY = {
  enter: '\r',
  altEnter: '\x1b\r',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  delete: '\x1b[3~',
  backspace: '\x7f',
  ctrlA: '\x01',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlE: '\x05',
  ctrlK: '\x0b',
  ctrlU: '\x15',
  ctrlW: '\x17',
  ctrlG: '\x07',
  ctrlL: '\x0c',
  ctrlR: '\x12',
  ctrlT: '\x14',
  escape: '\x1b',
  doubleEscape: '\x1b\x1b',
  tab: '\t',
  shiftTab: '\x1b[Z',
  pasteStart: '\x1b[200~',
  pasteEnd: '\x1b[201~',
} as const;
