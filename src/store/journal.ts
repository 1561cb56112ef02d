import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ToolOutcome } from '../core/types';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files';

/**
 * The side-effect journal (invariant 7): a mutating tool call is marked `started` before it runs
 * and `completed`, with its outcome, after. A retried attempt thus knows whether an earlier one
 * finished (its recorded outcome is returned) or was interrupted midway (it is not re-run blindly).
 * Keyed by workflow id and call id: the idempotency key of the call.
 */
export type JournalEntry =
  /** `before`: the target file's fingerprint when the call first started (write_file, replace). */
  { state: 'started'; attempt: number; before?: string } | { state: 'completed'; outcome: ToolOutcome };

export interface ToolJournal {
  get(key: string): Promise<JournalEntry | undefined>;
  put(key: string, entry: JournalEntry): Promise<void>;
}

/** One small JSON file per call under `<root>`, replaced atomically (write, then rename). */
export class FileToolJournal implements ToolJournal {
  constructor(private readonly root: string) {}

  async get(key: string): Promise<JournalEntry | undefined> {
    const text = await fs.readFile(this.file(key), 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    return text === undefined ? undefined : (JSON.parse(text) as JournalEntry);
  }

  async put(key: string, entry: JournalEntry): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(entry), { mode: PRIVATE_FILE });
    await fs.rename(tmp, file);
  }

  private file(key: string): string {
    const digest = createHash('sha256').update(key).digest('hex');
    return path.join(this.root, digest.slice(0, 2), `${digest.slice(2, 40)}.json`);
  }
}
