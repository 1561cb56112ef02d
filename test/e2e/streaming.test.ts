import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ResponseJson } from '../../src/fake-gemini/script';
import { FakeGeminiServer, streamLine } from '../../src/fake-gemini';
import { FileLiveStream } from '../../src/store/live-stream';
import { exited, spawnWorker } from '../helpers/processes';
import { followEvents } from '../../src/client';
import type { StreamPiece } from '../../src/core/live-text';
import { createPrinter } from '../../src/cli/output';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { Writable } from 'node:stream';

/**
 * Live output: the worker publishes the answer's pieces as they stream; a follower shows them
 * before the turn ends, and a retried stream (cut mid-way, tried again inside the activity) shows
 * no text twice.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('streaming');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const WORDS = ['Durable ', 'agents ', 'never ', 'lose ', 'a ', 'word.'];

function chunk(text: string, last = false): ResponseJson {
  return {
    candidates: [
      { content: { role: 'model', parts: [{ text }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
    ],
    ...(last ? { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 6, totalTokenCount: 16 } } : {}),
  };
}

const answer = (opts: { delayMs?: number; dropAfterChunks?: number } = {}) =>
  streamLine(
    WORDS.map((w, i) => chunk(w, i === WORDS.length - 1)),
    opts,
  );

function capture(): { io: { stdout: Writable; stderr: Writable }; out: () => string; err: () => string } {
  const chunks = { out: '', err: '' };
  const sink = (key: 'out' | 'err') => new Writable({ write: (c, _e, cb) => void ((chunks[key] += String(c)), cb()) });
  return { io: { stdout: sink('out'), stderr: sink('err') }, out: () => chunks.out, err: () => chunks.err };
}

/** Follows a prompt as `run` does, noting what arrived live before the turn's `content` event. */
async function follow(workflowId: string, format: 'text' | 'stream-json') {
  const c = capture();
  const printer = createPrinter(format, c.io, workflowId);
  const pieces: StreamPiece[] = [];
  let shownBeforeContent = '';
  /** Texts on screen after each read of pieces: a live answer is seen growing. */
  const growth: string[] = [];
  await followEvents(
    h.env.client,
    workflowId,
    (e) => {
      if (e.type === 'content' && !shownBeforeContent) shownBeforeContent = c.out() || '(nothing)';
      printer.event(e);
    },
    {
      live: {
        stream: h.live,
        onPiece: (p) => {
          pieces.push(p);
          printer.piece(p);
          if (growth[growth.length - 1] !== c.out()) growth.push(c.out());
        },
      },
      pollMs: 20,
    },
  );
  return { out: c.out(), err: c.err(), pieces, shownBeforeContent, growth };
}

test('text appears while the turn streams, before the turn is recorded', async () => {
  // 250 ms between chunks: the follower (polling every 40 ms) sees the answer grow.
  const handle = await h.start([answer({ delayMs: 250 })]);
  const seen = await follow(handle.workflowId, 'text');
  expect(seen.out).toBe(WORDS.join(''));
  expect(seen.shownBeforeContent).not.toBe('(nothing)');
  expect(seen.growth.length).toBeGreaterThan(1);
  expect(seen.growth.every((text) => WORDS.join('').startsWith(text))).toBe(true);
  // The follower stops at the prompt's end, maybe before reading the last pieces: the content event showed them.
  expect(seen.pieces.map((p) => p.seq)).toEqual(seen.pieces.map((_, i) => i));
  expect(new Set(seen.pieces.map((p) => `${p.turn}/${p.attempt}`)).size).toBe(1);
}, 60_000);

test('a stream cut mid-way and retried shows no text twice', async () => {
  // The first try is cut after 3 chunks; the activity tries again and the same answer streams whole.
  const handle = await h.start([answer({ delayMs: 100, dropAfterChunks: 3 }), answer({ delayMs: 100 })]);
  const seen = await follow(handle.workflowId, 'text');
  expect(seen.out).toBe(WORDS.join(''));
  expect(seen.err).not.toContain('restarts here');
  const attempts = [...new Set(seen.pieces.map((p) => p.attempt))];
  expect(attempts).toHaveLength(2);
  expect(seen.pieces.filter((p) => p.attempt === attempts[0]).map((p) => p.text)).toEqual(WORDS.slice(0, 3));
  expect((await h.finish(handle)).result?.response).toBe(WORDS.join(''));
}, 60_000);

test('stream-json deltas of a retried turn concatenate to the answer once', async () => {
  const handle = await h.start([answer({ delayMs: 80, dropAfterChunks: 2 }), answer({ delayMs: 80 })]);
  const seen = await follow(handle.workflowId, 'stream-json');
  const lines = seen.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; role?: string; content?: string; replace?: boolean });
  const deltas = lines.filter((l) => l.type === 'message' && l.role === 'assistant');
  expect(deltas.some((l) => l.replace)).toBe(false);
  expect(deltas.map((l) => l.content).join('')).toBe(WORDS.join(''));
}, 60_000);

test('a retry that answers differently replaces the shown text instead of appending to it', async () => {
  const other = streamLine([chunk('Something '), chunk('else.', true)], { delayMs: 80 });
  const handle = await h.start([answer({ delayMs: 80, dropAfterChunks: 3 }), other]);
  const seen = await follow(handle.workflowId, 'text');
  expect(seen.err).toContain('restarts here');
  expect(seen.out.endsWith('Something else.')).toBe(true);
  expect(seen.out.match(/Something else\./g)).toHaveLength(1);
}, 60_000);

/**
 * The worker dies while the answer streams; a new worker's retry streams it again from the start.
 * The follower, reading the side channel on disk throughout, shows the answer once.
 */
test('an answer cut by a worker killed mid-stream is shown once after the new worker retries it', async () => {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, 'stream-kill-'));
  const fake = await FakeGeminiServer.start({ script: [answer({ delayMs: 400 }), answer({ delayMs: 20 })] });
  const taskQueue = env.uniqueTaskQueue('stream-kill');
  const workerEnv = {
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: home,
  };
  let worker = spawnWorker(workerEnv);
  try {
    const handle = await env.client.workflow.start('agentPromptWorkflow', {
      taskQueue,
      workflowId: `stream-kill-${Date.now()}`,
      args: [
        {
          prompt: 'say it',
          workspace: h.workspace(),
          model: 'gemini-test',
          approvalMode: 'yolo',
          maxTurns: 5,
          modelHeartbeatTimeoutMs: 2000,
          modelRetryInitialMs: 100,
        },
      ],
    });
    const live = new FileLiveStream(path.join(home, 'live'));
    const c = capture();
    const printer = createPrinter('text', c.io, handle.workflowId);
    const pieces: StreamPiece[] = [];
    const following = followEvents(env.client, handle.workflowId, (e) => printer.event(e), {
      live: { stream: live, onPiece: (p) => (pieces.push(p), printer.piece(p)) },
      pollMs: 20,
    });
    for (let i = 0; i < 600 && pieces.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    worker.kill('SIGKILL');
    await exited(worker);
    worker = spawnWorker(workerEnv);
    await following;
    expect(c.out()).toBe(WORDS.join(''));
    expect(new Set(pieces.map((p) => p.attempt.split('.')[1]))).toEqual(new Set(['1', '2']));
  } finally {
    worker.kill('SIGTERM');
    await exited(worker);
    await fake.close();
  }
}, 90_000);
