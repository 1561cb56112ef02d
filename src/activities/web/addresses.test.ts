import { isPrivateAddress } from './addresses';

test('every IPv6 form that carries a private IPv4 address is private', () => {
  for (const a of [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '[::ffff:7f00:1]',
    '::ffff:0.0.0.0',
    '::ffff:0:0',
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::192.168.0.1',
    '64:ff9b:1::8.8.8.8',
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'fe80::1%eth0',
  ])
    expect([a, isPrivateAddress(a)]).toEqual([a, true]);
});

test('private, reserved and special IPv4 and IPv6 ranges are private; public ones are not', () => {
  const privates = ['0.0.0.0', '127.1.2.3', '100.64.0.1', '192.0.0.8', '198.18.0.1', '224.0.0.1', '255.255.255.255'];
  for (const a of [...privates, '::', '::1', 'fc00::1', 'fec0::1', 'ff02::1', 'not an address'])
    expect([a, isPrivateAddress(a)]).toEqual([a, true]);
  for (const a of ['8.8.8.8', '100.128.0.1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700::1'])
    expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  expect(isPrivateAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toBe(false); // Teredo client 8.8.8.8
});
