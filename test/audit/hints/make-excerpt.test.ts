import { describe, expect, it } from 'vitest';
import { MAX_EXCERPT_CHARS, makeExcerpt } from '../../../src/audit/hints/make-excerpt.js';

const excerptOfLine = (line: string, match = 0): string => makeExcerpt(line, 0, line.length, match);

describe('makeExcerpt', () => {
  it('quotes a short line trimmed of blanks', () => {
    expect(excerptOfLine('\t   eval(x);   ')).toBe('eval(x);');
  });

  it('keeps a long line to the limit and keeps the match in view', () => {
    const line = `${'x'.repeat(300)}MATCH${'y'.repeat(300)}`;
    const excerpt = excerptOfLine(line, 300);
    expect(excerpt.length).toBe(MAX_EXCERPT_CHARS);
    expect(excerpt).toContain('MATCH');
    expect(line).toContain(excerpt);
  });

  it('starts at the line start when the match is near it', () => {
    const line = `MATCH${'z'.repeat(400)}`;
    expect(excerptOfLine(line, 0).startsWith('MATCH')).toBe(true);
  });

  it('ends at the line end when the match is near it', () => {
    const line = `${'z'.repeat(400)}MATCH`;
    expect(excerptOfLine(line, 400).endsWith('MATCH')).toBe(true);
  });

  it('writes bidi, zero-width and control characters as escapes', () => {
    expect(excerptOfLine('a\u202Eb\u200Bc\u001B[31md')).toBe('a\\u202Eb\\u200Bc\\u001B[31md');
  });

  it('keeps a leading byte-order mark visible as an escape', () => {
    expect(excerptOfLine('\uFEFFconst a = 1;')).toBe('\\uFEFFconst a = 1;');
  });

  it('stays within the limit when escapes lengthen it, without cutting an escape', () => {
    const excerpt = excerptOfLine('\u200B'.repeat(200));
    expect(excerpt.length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS);
    expect(excerpt).toMatch(/^(?:\\u200B)+$/);
  });

  it('does not split a surrogate pair at the window edge', () => {
    const line = `${'\u{1F600}'.repeat(200)}`;
    const excerpt = excerptOfLine(line, 200);
    expect(excerpt.length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS);
    expect(excerpt).toMatch(/^(?:\u{1F600})+$/u);
  });

  it('reads a line inside a larger text by its offsets', () => {
    const text = 'first\n  second line  \nthird';
    expect(makeExcerpt(text, 6, 21, 8)).toBe('second line');
  });
});
