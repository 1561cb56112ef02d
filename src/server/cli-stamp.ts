import * as fs from 'node:fs';

/**
 * The Temporal CLI a home last verified (`temporal --version`), by path and file identity. Each
 * cold `run` would otherwise spend a process start (0.1–0.3 s) checking the same binary again
 * before it can start the server. A binary replaced, rebuilt or moved no longer matches its
 * stamp and is verified again; one that merely fails later shows in the server's own start error.
 */
interface Stamp {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

function identity(cliPath: string): Stamp | undefined {
  try {
    const stat = fs.statSync(cliPath);
    return stat.isFile() ? { path: cliPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } : undefined;
  } catch {
    return undefined;
  }
}

/** True when `cliPath` is the very file recorded in `stampFile` as verified. */
export function stampedAsVerified(stampFile: string, cliPath: string): boolean {
  const now = identity(cliPath);
  try {
    const was = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as Stamp;
    return !!now && (['path', 'size', 'mtimeMs', 'ino'] as const).every((key) => was[key] === now[key]);
  } catch {
    return false;
  }
}

export function stampVerified(stampFile: string, cliPath: string): void {
  const now = identity(cliPath);
  try {
    if (now) fs.writeFileSync(stampFile, JSON.stringify(now), { mode: 0o600 });
  } catch {
    // Only a missed shortcut: the next start verifies the binary again.
  }
}
