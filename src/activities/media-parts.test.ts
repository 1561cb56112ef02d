import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Content } from '@google/genai';
import { storedData } from '../core/media';
import { FileTranscriptStore } from '../store/file-store';
import { expandStoredMedia } from './media-parts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'da-media-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('expandStoredMedia', () => {
  const store = new FileTranscriptStore(dir);
  const gone = 'sha256:' + '0'.repeat(64);

  it('puts the stored bytes into the request, nested or alone, and leaves the transcript as it was', async () => {
    const ref = await store.putBlob('iVBORw0K');
    const nested = { inlineData: { mimeType: 'image/png', data: storedData(ref) } };
    const contents: Content[] = [
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'read_file', response: { output: 'x' }, parts: [nested] } }],
      },
      { role: 'model', parts: [{ text: 'next' }] },
      { role: 'user', parts: [{ inlineData: { mimeType: 'audio/mpeg', data: storedData(ref) } }] },
    ];
    const before = JSON.stringify(contents);
    const request = await expandStoredMedia(contents, store);
    expect(request[0].parts![0].functionResponse!.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
    ]);
    expect(request[1]).toBe(contents[1]);
    expect(request[2].parts).toEqual([{ inlineData: { mimeType: 'audio/mpeg', data: 'iVBORw0K' } }]);
    expect(JSON.stringify(contents)).toBe(before);
  });

  it('a reference the store no longer holds becomes a note for the model, not a failed request', async () => {
    const contents: Content[] = [
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'read_file',
              response: { output: 'Read image file a.png' },
              parts: [{ inlineData: { mimeType: 'image/png', data: storedData(gone) } }],
            },
          },
        ],
      },
      { role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: storedData(gone) } }] },
    ];
    const request = await expandStoredMedia(contents, store);
    const response = request[0].parts![0].functionResponse!;
    expect(response.parts).toEqual([]);
    expect(response.response!.output).toMatch(/^Read image file a\.png\n\[A file \(image\/png\) .* no longer/);
    expect(request[1].parts![0].text).toMatch(/audio\/wav.*Read the file again/);
  });

  it('leaves real inline data and messages without media alone', async () => {
    const contents: Content[] = [
      { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } }, { text: 'hi' }] },
    ];
    expect(await expandStoredMedia(contents, store)).toEqual(contents);
  });
});
