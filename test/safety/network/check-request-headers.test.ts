import { describe, expect, it } from 'vitest';
import { checkRequestHeaders } from '../../../src/safety/network/index.js';

describe('checkRequestHeaders', () => {
  it('accepts ordinary headers', () => {
    expect(
      checkRequestHeaders({ accept: 'text/html', 'User-Agent': 'oy', 'X-Custom': 'a b' }),
    ).toEqual({ ok: true });
  });

  it.each([
    'authorization',
    'Authorization',
    'AUTHORIZATION',
    'cookie',
    'Cookie',
    'proxy-authorization',
    'Proxy-Authorization',
    'host',
    'HOST',
    'x-forwarded-for',
    'X-Forwarded-For',
    ' Host ',
  ])('refuses the %j header', (name) => {
    expect(checkRequestHeaders({ [name]: 'value' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('may not be set'),
    });
  });

  it.each([
    [{ 'x-a': 'one\r\nInjected: yes' }],
    [{ 'x-a': 'one\nInjected: yes' }],
    [{ 'x-a': 'one\rtwo' }],
    [{ 'x-a\r\nInjected': 'yes' }],
    [{ 'x-a\n': 'yes' }],
  ])('refuses a line break in %j', (headers) => {
    expect(checkRequestHeaders(headers)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('line break'),
    });
  });
});
