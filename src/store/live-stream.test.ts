import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StreamPiece } from '../core/live-text';
import { FileLiveStream, LIVE_RETENTION_MS } from './live-stream';
import { describeLiveStream } from './live-stream-contract';

describeLiveStream('FileLiveStream', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-live-'));
  return {
    live: new FileLiveStream(root),
    another: () => new FileLiveStream(root),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
});

const piece = (turn: number, seq: number, text = `t${turn}.${seq}`): StreamPiece => ({
  turn,
  attempt: 'a.1.1',
  seq,
  kind: 'text',
  text,
});

describe('FileLiveStream', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'da-live-'));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('never hands out half a line, and another process reads what one wrote', async () => {
    const live = new FileLiveStream(root);
    await live.publish('wf', [piece(1, 0)]);
    const [dir] = await fs.readdir(root);
    await fs.appendFile(path.join(root, dir, '1.jsonl'), '{"turn":1,"att');
    const read = await new FileLiveStream(root).read('wf', undefined);
    expect(read.pieces.map((p) => p.text)).toEqual(['t1.0']);
  });

  it('removes prompts idle for the retention period', async () => {
    await new FileLiveStream(root).publish('old', [piece(1, 0)]);
    const [dir] = await fs.readdir(root);
    const longAgo = new Date(Date.now() - LIVE_RETENTION_MS - 60_000);
    await fs.utimes(path.join(root, dir), longAgo, longAgo);
    // A process sweeps when it first publishes, then at most once an hour.
    await new FileLiveStream(root).publish('new', [piece(1, 0)]);
    expect((await new FileLiveStream(root).read('old', undefined)).pieces).toEqual([]);
    expect((await new FileLiveStream(root).read('new', undefined)).pieces).toHaveLength(1);
  });
});
