import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

export interface BinProcess {
  child: ChildProcess;
  /** Date.now() just before the spawn. */
  startedAt: number;
  /** Standard output and error, interleaved. */
  output(): string;
  /** Standard output alone (a `-o json` document, say). */
  stdout(): string;
  exited: Promise<number | string>;
}

/** Runs `bin/durable-agent.js ARGS` in its own Node process, as a user would, without any real API key. */
export function spawnBin(binPath: string, args: string[], env: Record<string, string>): BinProcess {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'GEMINI_API_KEY') base[k] = v;
  const startedAt = Date.now();
  const child = spawn(process.execPath, [binPath, ...args], {
    env: { ...base, DURABLE_AGENT_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (d) => ((output += d), (stdout += d)));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code ?? -1)),
  );
  return { child, startedAt, output: () => output, stdout: () => stdout, exited };
}

export async function stopBin(proc: BinProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  await proc.exited;
}

/** Peak resident memory of a live process in MiB (Linux VmHWM), undefined elsewhere. */
export function peakRssMiB(pid: number | undefined): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds a live process has used so far (Linux /proc), undefined elsewhere. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}
