import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Ties a child server's life to this process's, however this process ends. An `exit` handler does
 * not run on `kill -9` or an out-of-memory kill, and the Temporal CLI cannot watch its parent: a
 * server left behind would keep the ports and the SQLite database, and the next command would
 * silently use it. So a tiny shell holds the read end of a pipe whose write end only this process
 * holds; the kernel closes it when this process dies, for any reason, and the shell then sends the
 * server SIGTERM (a clean shutdown of the database). The leash goes when the server exits first.
 * Without a POSIX shell (Windows) there is no leash (false): the `exit` handler is all there is.
 */
export function leashToThisProcess(server: ChildProcess): boolean {
  if (process.platform === 'win32' || server.pid === undefined) return false;
  // One process (shell builtins only: no `cat` child to outlive a SIGKILL of the shell), and an empty
  // environment: it needs nothing of ours, least of all the API key.
  const script = 'while read -r _; do :; done; kill -TERM "$1" 2>/dev/null';
  const leash = spawn('/bin/sh', ['-c', script, 'leash', String(server.pid)], {
    env: {},
    stdio: ['pipe', 'ignore', 'ignore'],
    // Its own process group: a Ctrl-C meant for the terminal's job must not cut the leash early.
    detached: true,
  });
  leash.on('error', () => undefined);
  leash.stdin?.on('error', () => undefined);
  // Neither the leash nor its pipe keeps this process alive.
  leash.unref();
  (leash.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  server.once('exit', () => leash.kill('SIGKILL'));
  return true;
}
