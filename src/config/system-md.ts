import * as os from 'node:os';
import * as path from 'node:path';
import type { SystemMdPaths } from '../core/prompt/shape';

/**
 * Gemini CLI's reading of `GEMINI_SYSTEM_MD` and `GEMINI_WRITE_SYSTEM_MD`: unset, blank, `0` or `false` is
 * off; `1` or `true` is `.gemini/system.md` under the current directory; anything else is a path (`~`
 * is the home directory), resolved against the current directory.
 */
export function systemMdPath(value: string | undefined, cwd: string): string | undefined {
  const given = value?.trim();
  if (!given || ['0', 'false'].includes(given.toLowerCase())) return undefined;
  if (['1', 'true'].includes(given.toLowerCase())) return path.resolve(cwd, '.gemini', 'system.md');
  const home = given === '~' || given.startsWith('~/') ? path.join(os.homedir(), given.slice(1)) : given;
  return path.resolve(cwd, home);
}

export function definedPaths(paths: SystemMdPaths): SystemMdPaths {
  return Object.fromEntries(Object.entries(paths).filter(([, v]) => v !== undefined));
}
