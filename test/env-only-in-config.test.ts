import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The environment is read in one module, src/config/env.ts, where every variable is declared with its
 * check; everything else receives the `Config` it builds (or its accessors for what is handed on to
 * child processes). A mention of `process.env` anywhere else in src/ fails here, so a new variable
 * cannot slip in unchecked and undocumented. Tests and bin/ scripts are not the program's settings.
 */

const SRC = path.join(__dirname, '..', 'src');
const THE_ONE = path.join(SRC, 'config', 'env.ts');

/** Files allowed to mention it anyway, each with its reason. None today. */
const EXCEPTIONS: Record<string, string> = {};

const PROCESS_ENV = /\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

test('no file of src/ but config/env.ts mentions process.env', () => {
  const offenders = sourceFiles(SRC)
    .filter((file) => file !== THE_ONE && EXCEPTIONS[path.relative(SRC, file)] === undefined)
    .flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, k) => (PROCESS_ENV.test(line) ? [`${path.relative(SRC, file)}:${k + 1}: ${line.trim()}`] : [])),
    );
  expect(offenders).toEqual([]);
});

test('the scan sees every way of writing it', () => {
  for (const line of ['process.env.X', 'process .env', "process['env']", 'const { env } = process.env;'])
    expect(PROCESS_ENV.test(line)).toBe(true);
  expect(PROCESS_ENV.test('processEnv()')).toBe(false);
  expect(fs.existsSync(THE_ONE)).toBe(true);
});
