import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Model names live in the catalogue (src/core/models/): which model plays each role, the context
 * windows, what a family needs. Code elsewhere asks it, so a new model or a retired one is one edit
 * there. Comments may name models as examples; code may not.
 */

const SRC = path.join(__dirname, '..', 'src');
const CATALOGUE = path.join('core', 'models') + path.sep;

/** Allowed anyway, with the reason. */
const EXCEPTIONS: Record<string, string> = {
  'fake-gemini': 'the fake server answers whatever model it is asked for; its examples are test data',
};

const MODEL_NAME = /\b(gemini-\d|gemma-\d)/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The code of a line: without a `//` comment and without the lines of a block comment. */
function codeOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  return trimmed.replace(/\s\/\/.*$/, '').replace(/^\/\/.*$/, '');
}

test('no code outside src/core/models/ names a model', () => {
  const excepted = (rel: string) => Object.keys(EXCEPTIONS).some((e) => rel === e || rel.startsWith(`${e}/`));
  const offenders = sourceFiles(SRC)
    .map((file) => path.relative(SRC, file))
    .filter((rel) => !rel.startsWith(CATALOGUE) && !excepted(rel.split(path.sep).join('/')))
    .flatMap((rel) =>
      fs
        .readFileSync(path.join(SRC, rel), 'utf8')
        .split('\n')
        .flatMap((line, k) => (MODEL_NAME.test(codeOf(line)) ? [`${rel}:${k + 1}: ${line.trim()}`] : [])),
    );
  expect(offenders).toEqual([]);
});
