import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { snapshotWorkspace } from '../src/checkpoints';
import { FileTranscriptStore } from '../src/store/file-store';
import type { BenchEnv } from './env';
import { fmt, median, range } from './stats';

/** Workspace checkpoints on the file store, the library alone (no workflow around it). */
export interface CheckpointsResult {
  files: number;
  /** ms of each checkpoint with one file changed since the last, stat cache warm. */
  oneChangedMs: number[];
  /** CPU ms (user and system) the process spent on each of them: what a machine to itself would take. */
  oneChangedCpuMs: number[];
  /** ms of the workspace's first checkpoint: every file read, hashed and stored. */
  firstMs: number;
  turns: number;
  /** Store bytes added per turn over `turns` turns each editing one file of a `smallFiles`-file workspace. */
  bytesPerTurn: number;
  firstTurnBytes: number;
  smallFiles: number;
}

async function makeTree(root: string, files: number, perFolder: number, bytes: number): Promise<void> {
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `dir${String(Math.floor(i / perFolder)).padStart(3, '0')}`);
    if (i % perFolder === 0) await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `file${i}.txt`), `${String(i).padEnd(bytes - 1, 'x')}\n`);
  }
}

async function storeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** A checkpoint after each of `runs` one-file edits; the racy margin is waited out so the cache is trusted. */
async function oneChanged(base: string, files: number, runs: number) {
  const root = path.join(base, 'ws');
  await makeTree(root, files, 100, 100);
  const store = new FileTranscriptStore(path.join(base, 'store'));
  const options = { statCacheDir: path.join(base, 'stat-cache') };
  let started = performance.now();
  await snapshotWorkspace(store, root, options);
  const firstMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 100));
  await snapshotWorkspace(store, root, options);
  const ms: number[] = [];
  const cpuMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    await fs.writeFile(path.join(root, 'dir050', 'file5000.txt'), `edit ${run}\n`);
    await new Promise((r) => setTimeout(r, 100));
    started = performance.now();
    const cpu = process.cpuUsage();
    await snapshotWorkspace(store, root, options);
    ms.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
  }
  return { firstMs, ms, cpuMs };
}

async function growth(base: string, files: number, turns: number): Promise<[first: number, perTurn: number]> {
  const root = path.join(base, 'ws');
  await makeTree(root, files, 10, 1024);
  const storeDir = path.join(base, 'store');
  const store = new FileTranscriptStore(storeDir);
  const options = { statCacheDir: path.join(base, 'stat-cache') };
  await snapshotWorkspace(store, root, options);
  const afterFirst = await storeBytes(storeDir);
  for (let turn = 1; turn <= turns; turn++) {
    await fs.writeFile(path.join(root, 'dir005', 'file55.txt'), `turn ${turn}\n`.padEnd(1024, 'y'));
    await snapshotWorkspace(store, root, options);
  }
  return [afterFirst, ((await storeBytes(storeDir)) - afterFirst) / turns];
}

export async function measureCheckpoints(env: BenchEnv, files: number, runs: number): Promise<CheckpointsResult> {
  const base = await fs.mkdtemp(path.join(env.tmp, 'checkpoints-'));
  try {
    const { firstMs, ms, cpuMs } = await oneChanged(path.join(base, 'big'), files, runs);
    const turns = 100;
    const [firstTurnBytes, bytesPerTurn] = await growth(path.join(base, 'growth'), 100, turns);
    return {
      files,
      oneChangedMs: ms,
      oneChangedCpuMs: cpuMs,
      firstMs,
      turns,
      bytesPerTurn,
      firstTurnBytes,
      smallFiles: 100,
    };
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

/** The section of docs/benchmarks.md. */
export function checkpointsTable(r: CheckpointsResult): string {
  const ms = r.oneChangedMs;
  return [
    '## Workspace checkpoints',
    '',
    'The checkpoint library alone on the file store (`snapshotWorkspace`, stat cache on), no workflow around it.',
    '',
    '| Case | Result | Goal |',
    '| --- | --- | --- |',
    `| Checkpoint of a ${r.files}-file workspace (100 folders), one file changed, stat cache warm | ` +
      `median ${fmt(median(ms))} ms, ${range(ms)} ms (${ms.length} runs); CPU time median ` +
      `${fmt(median(r.oneChangedCpuMs))} ms, ${range(r.oneChangedCpuMs)} ms | < 50 ms |`,
    `| First checkpoint of the same workspace (every file read, hashed and stored) | ${fmt(r.firstMs)} ms | |`,
    `| Store bytes per turn over ${r.turns} turns editing one file (${r.smallFiles} files of 1 KB, 10 folders) | ` +
      `${fmt(r.bytesPerTurn)} B (first checkpoint ${fmt(r.firstTurnBytes)} B) | |`,
  ].join('\n');
}
