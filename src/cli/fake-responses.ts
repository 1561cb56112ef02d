import * as fs from 'node:fs';
import { parseScript, ScriptParseError } from '../fake-gemini';
import { InputError } from './exit-codes';
import type { FakeResponses } from '../runtime';

/**
 * The `--fake-responses` / `--fake-responses-non-strict` choice, with its file read and parsed here,
 * before anything starts: a missing file or a bad line exits 42 naming the file and the line,
 * instead of failing after the embedded server and worker are up.
 */
export function fakeResponsesOption(o: {
  fakeResponses?: string;
  fakeResponsesNonStrict?: string;
}): FakeResponses | undefined {
  if (o.fakeResponses && o.fakeResponsesNonStrict)
    throw new InputError('use only one of --fake-responses and --fake-responses-non-strict');
  const file = o.fakeResponses ?? o.fakeResponsesNonStrict;
  if (!file) return undefined;
  const flag = o.fakeResponses ? '--fake-responses' : '--fake-responses-non-strict';
  checkScriptFile(flag, file);
  return { path: file, strict: !!o.fakeResponses };
}

function checkScriptFile(flag: string, file: string): void {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new InputError(`${flag} ${file}: ${why}`);
  }
  try {
    parseScript(text, file);
  } catch (err) {
    if (err instanceof ScriptParseError)
      throw new InputError(
        `${flag} ${err.message} (expected JSON Lines, one {"method": ..., "response": ...} per line)`,
      );
    throw err;
  }
}
