import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasGlobMagic } from '../tools/glob-match';
import { parseAtPaths } from '../tools/at-paths';
import { InputError } from './input-error';

/**
 * Checks a prompt's `@path` references before anything starts (exit 42): a plain path must not lead
 * out of the workspace. A path that names nothing is no error: the prompt's activity leaves it out with
 * a warning and the prompt goes on, as Gemini CLI does. Globs are left to that activity too.
 */
export function checkAtPaths(prompt: string, workspace: string): void {
  for (const reference of parseAtPaths(prompt)) {
    if (hasGlobMagic(reference)) continue;
    const target = path.resolve(workspace, reference);
    if (!fs.existsSync(target)) continue;
    const real = fs.realpathSync(target);
    if (real !== workspace && !real.startsWith(`${workspace}${path.sep}`))
      throw new InputError(
        `@${reference} is outside the workspace ${workspace}; only files inside it can be referenced.`,
      );
  }
}
