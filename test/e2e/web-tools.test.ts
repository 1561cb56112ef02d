import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorLine, functionCallResponse, groundedResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness, type PromptRun } from '../helpers/agent-harness';
import { answerEvery } from '../helpers/approvals';
import { unfenced } from '../helpers/sent-parts';

/**
 * `web_fetch` and `google_web_search` end to end: their own `generateContent` calls (search
 * grounding, URL context) go to the fake Gemini server through the real SDK; the direct-fetch
 * fallback reads a page from a loopback server of this test.
 */
let h: Harness;
let pages: http.Server;
let base: string;
const hits: string[] = [];
beforeAll(async () => {
  h = await createHarness('web-tools');
  pages = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url !== '/notes') return void res.writeHead(404).end('no such page');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      '<html><body><h1>Release notes</h1><p>Version 7 ships &amp; works</p><script>hidden()</script></body></html>',
    );
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => pages?.close(resolve));
  await closeTestEnv();
});
beforeEach(() => (hits.length = 0));

type Body = {
  contents: { parts: { text?: string; functionResponse?: { response: { output?: string; error?: string } } }[] }[];
};
const bodyOf = (i: number) => h.fake.requests[i].body as Body & { tools?: unknown[] };
/** What the main model was told about the calls of the previous turn, from request `i`. */
const answers = (i: number) =>
  bodyOf(i)
    .contents.at(-1)!
    .parts.map((p) => p.functionResponse!.response)
    .map((r) => ('output' in r ? { ...r, output: webText(r.output as string) } : r));
/** A web result's text with its untrusted-data fence checked and taken off (after the search heading). */
function webText(output: string): string | undefined {
  const search = /^(Web search results for "[^"]*":\n\n)([\s\S]*)$/.exec(output);
  if (search) return search[1] + unfenced(search[2], 'web');
  return output.startsWith('<') ? unfenced(output, 'web') : output;
}
const textOf = (i: number) =>
  bodyOf(i)
    .contents[0].parts.map((p) => p.text)
    .join('');
const fetchCall = (prompt: string) => ({ name: 'web_fetch', args: { prompt } });
const calls = (run: PromptRun) => run.events.filter((e) => e.type === 'tool_call_response');

test('google_web_search: a grounded answer reaches the model with citation markers and its sources, without asking', async () => {
  const grounding = {
    groundingChunks: [{ web: { uri: 'https://temporal.io', title: 'Temporal' } }, { web: { title: 'Blog' } }],
    // Offsets count UTF-8 bytes: 'é' is two of them.
    groundingSupports: [{ segment: { startIndex: 0, endIndex: 22 }, groundingChunkIndices: [0, 1] }],
  };
  const run = await h.run(
    [
      functionCallResponse({ name: 'google_web_search', args: { query: 'what is Temporal' } }),
      groundedResponse('Temporal is durable é. It replays.', { groundingMetadata: grounding }),
      textResponse('done'),
    ],
    { approvalMode: 'default' },
  );
  expect(run.result?.response).toBe('done');
  expect(bodyOf(1).tools).toEqual([{ googleSearch: {} }]);
  expect(textOf(1)).toBe('what is Temporal');
  expect(answers(2)[0].output).toBe(
    'Web search results for "what is Temporal":\n\nTemporal is durable é[1][2]. It replays.\n\n' +
      'Sources:\n[1] Temporal (https://temporal.io)\n[2] Blog (no URI)',
  );
});

test('web_fetch asks in default mode, then reads the pages through URL context', async () => {
  const url = 'https://203.0.113.7/guide';
  const handle = await h.start(
    [
      functionCallResponse(fetchCall(`Summarize ${url} in one line`)),
      groundedResponse('The guide explains setup.', {
        urlContextMetadata: {
          urlMetadata: [{ retrievedUrl: url, urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }],
        },
        groundingMetadata: {
          groundingChunks: [{ web: { uri: url, title: 'Guide' } }],
          groundingSupports: [{ segment: { endIndex: 25 }, groundingChunkIndices: [0] }],
        },
      }),
      textResponse('done'),
    ],
    { approvalMode: 'default' },
  );
  const asked = await answerEvery(handle, () => ({ outcome: 'proceed_once' }));
  expect(asked.map((c) => c.name)).toEqual(['web_fetch']);
  expect(bodyOf(1).tools).toEqual([{ urlContext: {} }]);
  expect(textOf(1)).toContain(`<authorized_urls>\n${url}\n</authorized_urls>`);
  expect(answers(2)[0].output).toBe('The guide explains setup.[1]\n\nSources:\n[1] Guide (https://203.0.113.7/guide)');
  expect(hits).toEqual([]);
});

test('web_fetch falls back to fetching a loopback page itself when the settings allow private addresses', async () => {
  const run = await h.run(
    [
      functionCallResponse(fetchCall(`What do the notes at ${base}/notes say?`)),
      errorLine(400, 'INVALID_ARGUMENT', 'URL context cannot reach this address', 'generateContent'),
      groundedResponse('Version 7 ships.'),
      textResponse('done'),
    ],
    { web: { allowPrivateAddresses: true } },
  );
  expect(run.result?.response).toBe('done');
  expect(hits).toEqual(['/notes']);
  expect(bodyOf(2).tools).toBeUndefined();
  expect(textOf(2)).toContain(`<source url="${base}/notes">\nRelease notes\nVersion 7 ships &amp; works\n</source>`);
  expect(textOf(2)).not.toContain('hidden()');
  expect(answers(3)[0].output).toBe('Version 7 ships.');
});

test('without that setting a private address is refused before any request, and the prompt goes on', async () => {
  const run = await h.run([functionCallResponse(fetchCall(`Read ${base}/notes`)), textResponse('ok')]);
  expect(run.result?.response).toBe('ok');
  expect(answers(1)[0].error).toBe(`All requested URLs were skipped: [Blocked host] ${base}/notes`);
  expect(h.fake.requests).toHaveLength(2);
  expect(hits).toEqual([]);
});

test('bad arguments and a failed fetch are error results for the model, and the prompt goes on', async () => {
  const run = await h.run(
    [
      functionCallResponse([
        fetchCall('  '),
        fetchCall('read the docs please'),
        fetchCall('get ftp://example.com/file'),
        { name: 'google_web_search', args: { query: '' } },
        fetchCall(`Read ${base}/missing`),
      ]),
      errorLine(400, 'INVALID_ARGUMENT', 'URL context cannot reach this address', 'generateContent'),
      textResponse('ok'),
    ],
    { web: { allowPrivateAddresses: true } },
  );
  expect(run.result?.response).toBe('ok');
  expect(calls(run).map((c) => (c as { ok: boolean }).ok)).toEqual([false, false, false, false, false]);
  const errors = answers(2).map((a) => a.error);
  expect(errors[0]).toMatch(/web_fetch: .*prompt.*must not be empty/);
  expect(errors[1]).toMatch(/must contain at least one URL/);
  expect(errors[2]).toMatch(/Unsupported protocol in "ftp:\/\/example.com\/file"/);
  expect(errors[3]).toMatch(/google_web_search: .*query.*must not be empty/);
  expect(errors[4]).toBe(`Every direct fetch failed: ${base}/missing: request failed with status 404 Not Found`);
  expect(hits).toEqual(['/missing']);
});

test('loopback spelled as IPv4-mapped IPv6 or as a number is refused, and the page server sees nothing', async () => {
  const port = new URL(base).port;
  const hosts = ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '[::ffff:0.0.0.0]'];
  const urls = [...hosts, '[::127.0.0.1]', '[64:ff9b::7f00:1]', '2130706433', '0x7f.0.0.1', '0177.1'].map(
    (host) => `http://${host}:${port}/notes`,
  );
  const run = await h.run([functionCallResponse(fetchCall(`Read ${urls.join(' ')}`)), textResponse('ok')]);
  expect(run.result?.response).toBe('ok');
  expect(answers(1)[0].error).toMatch(/^All requested URLs were skipped: \[Blocked host\] http:\/\/\[::ffff:7f00:1\]/);
  expect(hits).toEqual([]);
});
