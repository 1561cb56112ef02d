import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasGlobMagic } from '../tools/glob-match';
import { parseAtPaths } from '../tools/at-paths';
import { InputError } from './exit-codes';

/**
 * Checks a prompt's `@path` references before anything starts (exit 42, as Gemini CLI's fatal input
 * error): each plain path must name a file or folder inside the workspace. Globs, and the reading itself,
 * are left to the prompt's activity, which fails the prompt as clearly if the files are gone by then.
 */
export function checkAtPaths(prompt: string, workspace: string): void {
  for (const reference of parseAtPaths(prompt)) {
    if (hasGlobMagic(reference)) continue;
    const target = path.resolve(workspace, reference);
    if (!fs.existsSync(target))
      throw new InputError(
        `@${reference} does not exist in the workspace; check the path (it is relative to ${workspace}).`,
      );
    const real = fs.realpathSync(target);
    if (real !== workspace && !real.startsWith(`${workspace}${path.sep}`))
      throw new InputError(
        `@${reference} is outside the workspace ${workspace}; only files inside it can be referenced.`,
      );
  }
}
