import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../server/temporal-cli';
import { liveEnv } from '../config/env';

/**
 * The commands a hint prints, spelled so that they work as printed from any shell. A clone's
 * `npx durable-agent` works only inside the clone and `temporal` is rarely on PATH: a name is
 * printed only when PATH finds this very program under it, otherwise its full path.
 */
export function selfCommand(searchPath = liveEnv.searchPath()): string {
  const bin = path.join(projectRoot(), 'bin', 'durable-agent.js');
  return sameFile(onPath('durable-agent', searchPath), bin) ? 'durable-agent' : bin;
}

/** The Temporal CLI as a hint prints it: `temporal` when PATH has it, else this checkout's installed one. */
export function temporalCommand(searchPath = liveEnv.searchPath()): string {
  if (onPath('temporal', searchPath)) return 'temporal';
  const root = projectRoot();
  const installed = ['.tools/venv/bin/temporal', '.tools/bin/temporal'].map((rel) => path.join(root, rel));
  return installed.find((file) => fs.existsSync(file)) ?? 'temporal';
}

function onPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

function sameFile(a: string | undefined, b: string): boolean {
  try {
    return a !== undefined && fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

/** The package's version, as `-v` prints it. */
export function packageVersion(): string {
  const manifest = path.join(projectRoot(), 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}
