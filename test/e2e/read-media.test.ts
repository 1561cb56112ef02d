import * as fs from 'node:fs';
import * as path from 'node:path';
import { temporal } from '@temporalio/proto';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * `read_file` of images, PDFs and audio: the next request carries the file as inline data
 * with its MIME type, inside the function response on Gemini 3 and beside it on older models, audio in
 * a message of its own; the bytes reach the model but never the workflow history.
 */

type InlineData = { mimeType: string; data: string };
type SentPart = {
  text?: string;
  inlineData?: InlineData;
  functionResponse?: {
    name: string;
    response: { output?: string; error?: string };
    parts?: { inlineData?: InlineData }[];
  };
};
type Sent = { contents: { role: string; parts: SentPart[] }[] };

let h: Harness;
beforeAll(async () => {
  h = await createHarness('read-media');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

/** Bytes no other file has, long enough that any copy of them in history would be found. */
function fileBytes(header: number[], seed: number): Buffer {
  const body = Array.from({ length: 6000 }, (_, i) => (i * 7919 + seed * 104729) % 251);
  return Buffer.from([...header, 0, ...body]);
}
const FILES = {
  'img/logo.png': { bytes: fileBytes([0x89, 0x50, 0x4e, 0x47], 1), mimeType: 'image/png' },
  'docs/spec.pdf': { bytes: fileBytes([0x25, 0x50, 0x44, 0x46], 2), mimeType: 'application/pdf' },
  'voice.mp3': { bytes: fileBytes([0x49, 0x44, 0x33], 3), mimeType: 'audio/mpeg' },
};

function mediaWorkspace(): string {
  const ws = h.workspace();
  for (const [file, { bytes }] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
    fs.writeFileSync(path.join(ws, file), bytes);
  }
  return ws;
}

const readAll = functionCallResponse(
  Object.keys(FILES).map((file) => ({ name: 'read_file', args: { file_path: file } })),
);
const sent = (i: number) => h.fake.requests.filter((r) => r.method === 'generateContentStream')[i].body as Sent;
const inline = (file: keyof typeof FILES) => ({
  inlineData: { mimeType: FILES[file].mimeType, data: FILES[file].bytes.toString('base64') },
});

async function historyBytes(workflowId: string): Promise<Buffer> {
  const history = await h.env.client.workflow.getHandle(workflowId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish());
}

test('Gemini 3: images and PDFs inside the function response, audio in a message of its own; not in history', async () => {
  const run = await h.run([readAll, textResponse('seen')], { workspace: mediaWorkspace(), model: 'gemini-3.8-flash' });
  expect(run.result?.response).toBe('seen');
  const contents = sent(1).contents;
  const [results, bridge, audio] = contents.slice(-3);
  const responses = results.parts.map((p) => p.functionResponse!);
  expect(responses.map((r) => r.name)).toEqual(['read_file', 'read_file', 'read_file']);
  expect(responses[0].parts).toEqual([inline('img/logo.png')]);
  expect(responses[1].parts).toEqual([inline('docs/spec.pdf')]);
  expect(responses[2].parts ?? []).toEqual([]);
  expect(responses[0].response.output).toContain('img/logo.png (image/png, 6005 bytes)');
  expect(responses[2].response.output).toContain('next message');
  expect(results.parts).toHaveLength(3);
  expect(bridge.role).toBe('model');
  expect(audio).toEqual({ role: 'user', parts: [inline('voice.mp3')] });

  const history = await historyBytes(run.workflowId);
  expect(history.includes('img/logo.png')).toBe(true); // the call is there, in plain JSON
  for (const { bytes } of Object.values(FILES)) {
    const base64 = bytes.toString('base64');
    expect(history.includes(base64.slice(1000, 1100))).toBe(false);
    expect(history.includes(bytes.subarray(1000, 1100))).toBe(false);
  }
});

test('an older model gets images and PDFs beside the function responses, in the same message', async () => {
  await h.run([readAll, textResponse('seen')], { workspace: mediaWorkspace(), model: 'gemini-2.5-flash' });
  const results = sent(1).contents.slice(-3)[0];
  expect(results.parts.map((p) => (p.functionResponse ? 'response' : p.inlineData?.mimeType))).toEqual([
    'response',
    'image/png',
    'response',
    'application/pdf',
    'response',
  ]);
  expect(results.parts[1]).toEqual(inline('img/logo.png'));
});

test('a media file the model cannot have gets a clear error, and the prompt goes on', async () => {
  const ws = h.workspace({ 'song.m4a': 'x\u0000y', 'empty.pdf': '' });
  const calls = functionCallResponse([
    { name: 'read_file', args: { file_path: 'song.m4a' } },
    { name: 'read_file', args: { file_path: 'empty.pdf' } },
  ]);
  const run = await h.run([calls, textResponse('ok')], { workspace: ws, model: 'gemini-3.8-flash' });
  expect(run.result?.response).toBe('ok');
  const errors = sent(1)
    .contents.slice(-1)[0]
    .parts.map((p) => p.functionResponse?.response.error);
  expect(errors[0]).toMatch(/format the model cannot take.*MP3, WAV/);
  expect(errors[1]).toMatch(/empty pdf file/);
});
