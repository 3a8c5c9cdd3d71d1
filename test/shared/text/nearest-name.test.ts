import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../src/shared/text/edit-distance.js';
import { nearestName } from '../../../src/shared/text/nearest-name.js';

describe('editDistance', () => {
  it.each([
    ['audit', 'audit', 0],
    ['audti', 'audit', 1],
    ['adit', 'audit', 1],
    ['auditt', 'audit', 1],
    ['hello', 'help', 2],
    ['', 'run', 3],
    ['ab', 'ba', 1],
    ['abc', 'ca', 3],
  ])('%j -> %j is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('nearestName', () => {
  it('takes the closest within the limit, the earlier on a tie, ignoring case', () => {
    expect(nearestName('MODL', ['mode', 'model'], 1)).toBe('mode');
    expect(nearestName('modell', ['mode', 'model'], 1)).toBe('model');
    expect(nearestName('zzz', ['mode', 'model'], 2)).toBeUndefined();
  });
});
