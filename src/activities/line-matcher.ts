import { Worker } from 'node:worker_threads';
import { ToolError, type LineMatcher, type LineSearch } from '../tools/types';

/**
 * The worker's code, as source text: it must load the same way from `src` under ts-jest and from
 * `dist`, and a catastrophic pattern (`^(a+)+$`) can only be stopped by terminating its thread, as
 * V8 does not interrupt a regular expression match on the thread that runs it.
 */
const MATCHER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const match = new RegExp(workerData.pattern, workerData.flags);
const exclude = workerData.exclude === undefined ? undefined : new RegExp(workerData.exclude, workerData.flags);
parentPort.on('message', ({ text, max }) => {
  const found = [];
  const lines = text.split('\\n');
  for (let i = 0; i < lines.length && found.length < max; i += 1) {
    const line = lines[i].endsWith('\\r') ? lines[i].slice(0, -1) : lines[i];
    if (match.test(line) && !(exclude && exclude.test(line))) found.push(i);
  }
  parentPort.postMessage(found);
});
`;

interface Pending {
  resolve(found: number[]): void;
  reject(error: unknown): void;
}

/**
 * A line matcher on a worker thread of its own, for one search. A `match` that runs past
 * `timeoutMs`, or one still running when `signal` aborts, terminates the thread, so the activity
 * worker's event loop and CPU are free again at once; the matcher is unusable afterwards.
 */
export function createLineMatcher(search: LineSearch, timeoutMs: number, signal?: AbortSignal): LineMatcher {
  const worker = new Worker(MATCHER_SOURCE, { eval: true, workerData: search });
  let pending: Pending | undefined;
  let stopped: Error | undefined;
  const fail = (error: Error) => {
    stopped ??= error;
    pending?.reject(stopped);
    pending = undefined;
    void worker.terminate();
  };
  const onAbort = () => fail(new ToolError('cancelled', 'The search was cancelled.'));
  signal?.addEventListener('abort', onAbort, { once: true });
  worker.on('message', (found: number[]) => {
    pending?.resolve(found);
    pending = undefined;
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the search thread stopped')));
  return {
    match(text, max) {
      if (stopped) return Promise.reject(stopped);
      return new Promise<number[]>((resolve, reject) => {
        const timer = setTimeout(() => fail(tooSlow(search.pattern, timeoutMs)), timeoutMs);
        const settle = () => clearTimeout(timer);
        pending = { resolve: (found) => (settle(), resolve(found)), reject: (error) => (settle(), reject(error)) };
        worker.postMessage({ text, max });
      });
    },
    async close() {
      signal?.removeEventListener('abort', onAbort);
      stopped ??= new Error('the line matcher is closed');
      await worker.terminate();
    },
  };
}

function tooSlow(pattern: string, timeoutMs: number): ToolError {
  const seconds = Number((timeoutMs / 1000).toFixed(1));
  return new ToolError(
    'search_timeout',
    `The search was stopped: matching pattern "${pattern}" against one file took more than ${seconds} seconds, so ` +
      'the pattern is too slow (nested repetitions such as (a+)+ backtrack without end on some lines). Simplify the ' +
      'pattern, for example remove nested quantifiers or anchor it on literal text, and search again.',
  );
}
