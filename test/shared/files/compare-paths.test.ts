import { describe, expect, it } from 'vitest';
import { comparePaths } from '../../../src/shared/files/compare-paths.js';

describe('comparePaths', () => {
  it('orders as UTF-8 bytes do, astral characters included', () => {
    const paths = ['b', 'a/b', 'a', 'B', '\u{1F600}', '\uFF5E', '\u00E9', 'a-b', 'a/'];
    const expected = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...paths].sort(comparePaths)).toEqual(expected);
    // Plain string order disagrees here, which is why the comparator exists.
    expect(['\u{1F600}', '\uFF5E'].sort()).toEqual(['\u{1F600}', '\uFF5E']);
    expect(['\u{1F600}', '\uFF5E'].sort(comparePaths)).toEqual(['\uFF5E', '\u{1F600}']);
  });
});
