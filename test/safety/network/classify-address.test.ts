import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../src/safety/network/index.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'unicast'],
    ['93.184.215.14', 'unicast'],
    ['2606:4700:4700::1111', 'unicast'],
    ['2002:808:808::1', '6to4'], // 6to4 of a public address
    ['64:ff9b::8.8.8.8', 'rfc6052'], // NAT64 of a public address
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
  ])('%s is public (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ isPublic: true, range });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['10.0.0.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4Mapped>loopback'],
    ['::ffff:0:10.0.0.1', 'rfc6145>private'],
    ['::127.0.0.1', 'ipv4Compatible>loopback'],
    ['::8.8.8.8', 'ipv4Compatible'], // deprecated, never routable even when the IPv4 is public
    ['2002:a9fe:a9fe::', '6to4>linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052>linkLocal'],
    ['64:ff9b:1::1', 'nat64LocalUse'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo>loopback'], // client 127.0.0.1, inverted
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'teredo>private'], // server 10.0.0.1
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['1::1', 'notGlobalUnicast'], // outside 2000::/3
    ['fe80::1%eth0', 'linkLocal'],
    ['0177.0.0.1', 'invalid'], // only canonical dotted decimal is classified
    ['127.1', 'invalid'],
    ['::ffff:0177.0.0.1', 'invalid'],
    ['not an address', 'invalid'],
    ['', 'invalid'],
  ])('%s is not public (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ isPublic: false, range });
  });

  it('accepts a bracketed IPv6 host as URL.hostname gives it', () => {
    expect(classifyAddress('[::1]')).toEqual({ isPublic: false, range: 'loopback' });
  });
});
