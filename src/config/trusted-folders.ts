import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { ConfigFileError } from './errors';

/**
 * Folder trust, as Gemini CLI's `trustedFolders.json`: `<home>/trusted-folders.json` maps a folder's
 * real path to `"TRUST_FOLDER"`, and a trusted folder trusts everything below it. Only the user
 * writes this file (`durable-agent trust`); it lives under the agent home, outside any workspace.
 * Read and written at the process edge (invariant 9).
 */

export const TRUSTED_FOLDERS_FILE = 'trusted-folders.json';

export class TrustFileError extends ConfigFileError {
  override name = 'TrustFileError';

  constructor(message: string) {
    super('trustedFolders', message);
  }
}

const fileSchema = z
  .record(z.string(), z.literal('TRUST_FOLDER', { message: 'the only value is "TRUST_FOLDER"' }))
  .refine((folders) => Object.keys(folders).every((key) => key.startsWith('/')), {
    message: 'keys must be absolute folder paths',
  });

export type TrustedFolders = z.infer<typeof fileSchema>;

export function trustedFoldersFile(home: string): string {
  return path.join(home, TRUSTED_FOLDERS_FILE);
}

/** The trusted folders; none when the file does not exist. A file that does not parse throws `TrustFileError`. */
export async function readTrustedFolders(home: string): Promise<TrustedFolders> {
  const file = trustedFoldersFile(home);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new TrustFileError(`${file}: cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TrustFileError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new TrustFileError(`${file}: must be an object mapping absolute folder paths to "TRUST_FOLDER"`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success)
    throw new TrustFileError(
      `${file}: ${parsed.error.issues.map((i) => [...i.path, i.message].join(': ')).join('; ')}`,
    );
  return parsed.data;
}

/** The trusted folder that covers `realPath` (itself or an ancestor), if any. Both are real paths. */
export function trustingFolder(folders: TrustedFolders, realPath: string): string | undefined {
  return Object.keys(folders)
    .sort((a, b) => b.length - a.length)
    .find((folder) => isInside(realPath, folder));
}

/** True when `child` is `parent` or under it (both absolute; no symlinks resolved here). */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** The real path of `dir`, or undefined when it is not an existing directory. */
export async function realDirectory(dir: string): Promise<string | undefined> {
  const real = await fs.realpath(dir).catch(() => undefined);
  return real && (await fs.stat(real)).isDirectory() ? real : undefined;
}

/** Rewrites the file with `change` applied; written to a temporary file and renamed, so a reader never sees half. */
export async function updateTrustedFolders(
  home: string,
  change: (folders: TrustedFolders) => TrustedFolders,
): Promise<void> {
  const folders = change(await readTrustedFolders(home));
  const file = trustedFoldersFile(home);
  await fs.mkdir(home, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify(folders, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(temporary, file);
}
