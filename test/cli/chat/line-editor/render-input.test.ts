import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../../src/cli/chat/line-editor/display-width.js';
import {
  deleteBackward,
  deleteWordBackward,
  moveLeft,
  moveLineDown,
  moveLineUp,
} from '../../../../src/cli/chat/line-editor/edit-buffer.js';
import { layoutInput } from '../../../../src/cli/chat/line-editor/render-input.js';

const prompts = { first: 'oy> ', continuation: '... ' };

describe('layoutInput', () => {
  it('places the cursor after the prompt, across lines and wrapped rows', () => {
    expect(layoutInput(prompts, { text: 'ab', cursor: 1 }, 80)).toMatchObject({
      content: 'oy> ab',
      cursorRow: 0,
      cursorCol: 5,
      endRow: 0,
      endCol: 6,
    });
    expect(layoutInput(prompts, { text: 'ab\ncd', cursor: 3 }, 80)).toMatchObject({
      content: 'oy> ab\r\n... cd',
      cursorRow: 1,
      cursorCol: 4,
      endRow: 1,
      endCol: 6,
    });
    expect(layoutInput(prompts, { text: '0123456789', cursor: 6 }, 8)).toMatchObject({
      cursorRow: 1,
      cursorCol: 2,
      endRow: 1,
      endCol: 6,
    });
  });

  it('measures a coloured prompt without its escape codes', () => {
    const layout = layoutInput(
      { first: '\x1b[1moy>\x1b[22m ', continuation: '' },
      { text: 'x', cursor: 1 },
      80,
    );
    expect(layout.cursorCol).toBe(5);
  });

  it('draws wide characters as two cells and wraps them whole', () => {
    const layout = layoutInput(prompts, { text: 'ab你好', cursor: 4 }, 9);
    expect([layout.endRow, layout.endCol]).toEqual([1, 2]);
    expect(displayWidth('你好')).toBe(4);
  });

  it('shows control characters and tabs visibly', () => {
    expect(layoutInput(prompts, { text: 'a\x1bb\tc', cursor: 0 }, 80).content).toBe(
      'oy> a^[b    c',
    );
  });
});

describe('edit buffer', () => {
  it('treats a surrogate pair as one character', () => {
    const text = 'a😀';
    expect(deleteBackward({ text, cursor: text.length })).toEqual({ text: 'a', cursor: 1 });
    expect(moveLeft({ text, cursor: text.length })).toEqual({ text, cursor: 1 });
  });

  it('deletes a word, or a newline on its own', () => {
    expect(deleteWordBackward({ text: 'foo bar  ', cursor: 9 })).toEqual({
      text: 'foo ',
      cursor: 4,
    });
    expect(deleteWordBackward({ text: 'foo\n', cursor: 4 })).toEqual({ text: 'foo', cursor: 3 });
  });

  it('moves between lines keeping the column where it can', () => {
    expect(moveLineUp({ text: 'ab\nlonger', cursor: 8 })).toEqual({
      text: 'ab\nlonger',
      cursor: 2,
    });
    expect(moveLineDown({ text: 'abcd\nx', cursor: 3 })).toEqual({ text: 'abcd\nx', cursor: 6 });
    expect(moveLineUp({ text: 'one line', cursor: 3 })).toBeUndefined();
    expect(moveLineDown({ text: 'one line', cursor: 3 })).toBeUndefined();
  });
});
