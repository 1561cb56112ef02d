/** Shared set-up for activity tests: a temporary transcript store, a quiet activity environment. */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Content } from '@google/genai';
import type { Info } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { FileTranscriptStore } from '../../src/store/file-store';

export interface TempStore {
  /** The store's directory, for opening a second store over the same files. */
  readonly dir: string;
  readonly store: FileTranscriptStore;
  /** Writes `messages` as a transcript from index 0 and returns its length. */
  writeTranscript(messages: Content[], transcriptId?: string): Promise<number>;
}

/** A fresh store in a new temporary directory for each test, removed after it (call at file level). */
export function useTempStore(prefix: string): TempStore {
  let dir = '';
  let store: FileTranscriptStore | undefined;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    store = new FileTranscriptStore(dir);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));
  const current = (): FileTranscriptStore => {
    if (!store) throw new Error('the temporary store exists only inside a test');
    return store;
  };
  return {
    get dir() {
      return dir;
    },
    get store() {
      return current();
    },
    async writeTranscript(messages, transcriptId = 'tx') {
      for (const [i, message] of messages.entries()) await current().writeMessage(transcriptId, i, message);
      return messages.length;
    },
  };
}

/** Tests expect failures: the worker's "Activity failed" warnings would only be noise. */
export function quietActivityEnv(info?: Partial<Info>): MockActivityEnvironment {
  return new MockActivityEnvironment(info, { logger: new DefaultLogger('ERROR') });
}

/** The `ApplicationFailure` a promise rejects with (the test fails if it resolves or rejects otherwise). */
export async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}
