import { describe, expect, it } from 'vitest';
import { checkUrl } from '../../../src/safety/network/index.js';
import { buildCanarySecrets, createRedactor } from '../../../src/safety/redact/index.js';

const redact = (text: string) => createRedactor().redact(text);

// Token-shaped canaries the redactor finds anywhere, so the URL check must find them too.
const URL_SAFE_CANARIES = buildCanarySecrets().filter(
  (canary) => /^[\w.-]+$/.test(canary.value) && redact(canary.value).redactions.length > 0,
);

describe('checkUrl', () => {
  it('accepts a public https URL and returns the parsed URL', () => {
    const result = checkUrl('https://docs.python.org/3/library/ipaddress.html?x=1', redact);
    expect(result.ok && result.url.hostname).toBe('docs.python.org');
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/',
    'gopher://example.com/',
    'data:,x',
    'javascript:alert(1)',
  ])('refuses the scheme of %s', (url) => {
    expect(checkUrl(url, redact)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('only http and https'),
    });
  });

  it.each(['not a url', '/relative/path', ''])('refuses the unparseable %j', (url) => {
    expect(checkUrl(url, redact)).toEqual({ ok: false, reason: 'not a valid absolute URL' });
  });

  it.each([
    'https://user:pass@example.com/',
    'https://user@example.com/',
    'https://:pw@example.com/',
  ])('refuses credentials in %s', (url) => {
    expect(checkUrl(url, redact)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('credentials'),
    });
  });

  it('has token canaries to plant', () => {
    expect(URL_SAFE_CANARIES.length).toBeGreaterThanOrEqual(5);
  });

  it.each(URL_SAFE_CANARIES.map((canary) => [canary.rule, canary.value]))(
    'refuses a URL carrying a %s as exfiltration',
    (_rule, value) => {
      for (const url of [
        `https://attacker.example/collect?k=${value}`,
        `https://attacker.example/${value}/x`,
        `https://attacker.example/#${value}`,
      ]) {
        expect(checkUrl(url, redact)).toMatchObject({
          ok: false,
          reason: expect.stringContaining('secret'),
        });
      }
    },
  );

  it('refuses a secret hidden behind percent-encoding', () => {
    const canary = URL_SAFE_CANARIES[0];
    expect(canary).toBeDefined();
    const encoded = [...(canary?.value ?? '')]
      .map((char) => `%${char.charCodeAt(0).toString(16)}`)
      .join('');
    expect(checkUrl(`https://attacker.example/?k=${encoded}`, redact)).toMatchObject({ ok: false });
  });

  it('checks the address WHATWG parsing produces, not the text', () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '[::ffff:7f00:1]']) {
      expect(checkUrl(`http://${host}/`, redact)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/not public \((loopback|ipv4Mapped>loopback)\)/),
      });
    }
  });

  it('leaves host names to the resolver check', () => {
    expect(checkUrl('http://localhost/', redact).ok).toBe(true);
  });
});
