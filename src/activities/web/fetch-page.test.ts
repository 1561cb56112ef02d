import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchPageText, htmlToText } from './fetch-page';
import { isPrivateAddress } from './addresses';
import { isPrivateHost, takeRateSlot } from './url-hosts';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://localhost/secret' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('plain & <kept>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const never = new AbortController().signal;

test('a page that does not answer in time is an error naming the limit', async () => {
  await expect(fetchPageText(`${base}/hang`, never, true, 200)).rejects.toThrow('no answer within 0.2 s');
});

test('text bodies come back as they are; a private address is refused at the first hop', async () => {
  await expect(fetchPageText(`${base}/plain`, never, true)).resolves.toBe('plain & <kept>');
  await expect(fetchPageText(`${base}/redirect`, never, false)).rejects.toThrow(
    'refused: 127.0.0.1 is a private address',
  );
});

test('a name that resolves to loopback at connect time is refused before a byte is sent (DNS rebinding)', async () => {
  const port = new URL(base).port;
  let answers = 0;
  const rebinding = async () => [{ address: ++answers === 1 ? '203.0.113.7' : '127.0.0.1', family: 4 }];
  await rebinding(); // what an earlier check of the name saw
  const fetched = fetchPageText(`http://rebind.example:${port}/plain`, never, false, 2000, rebinding);
  await expect(fetched).rejects.toThrow('refused: rebind.example resolves to a private address 127.0.0.1');
  await expect(fetchPageText(`http://rebind.example:${port}/plain`, never, true, 2000, rebinding)).rejects.toThrow();
});

test('an IP literal in any spelling is judged as the address it is, and refused when private', async () => {
  const port = new URL(base).port;
  for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '2130706433', '0x7f.1'])
    await expect(fetchPageText(`http://${host}:${port}/plain`, never, false)).rejects.toThrow(
      /refused: .* is a private/,
    );
});

test('HTML is reduced to its text', () => {
  expect(htmlToText('<p>a &amp; b&#33;</p><style>x{}</style><div>c</div><!-- d -->')).toBe('a & b!\nc');
});

test('private, loopback and local hosts are recognised; public ones are not', async () => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.0.1',
    '::1',
    'fd00::1',
    '::ffff:10.0.0.1',
  ])
    expect(isPrivateAddress(a)).toBe(true);
  for (const a of ['8.8.8.8', '203.0.113.7', '172.32.0.1', '2001:db8::1']) expect(isPrivateAddress(a)).toBe(false);
  await expect(isPrivateHost('http://printer.local/')).resolves.toBe(true);
  await expect(isPrivateHost('http://[::1]:8080/')).resolves.toBe(true);
  await expect(isPrivateHost('https://203.0.113.7/')).resolves.toBe(false);
});

test('each host gets 10 requests a minute', () => {
  const now = 1_000_000;
  const taken = Array.from({ length: 11 }, () => takeRateSlot('https://rate.example/a', now));
  expect(taken.filter(Boolean)).toHaveLength(10);
  expect(takeRateSlot('https://other.example/', now)).toBe(true);
  expect(takeRateSlot('https://rate.example/b', now + 60_001)).toBe(true);
});
