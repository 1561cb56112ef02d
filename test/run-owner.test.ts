import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * One owner per workflow run (src/workflows/run/): the loop's steps take the run, not its loose parts, and the
 * run's cursor and ending change only through it. These scans keep it so; each reports the lines that break it.
 */

const WORKFLOWS = path.join(__dirname, '..', 'src', 'workflows');
const OWNER = path.join(WORKFLOWS, 'run');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every `file:line: text` of the workflow sources (outside the owner) whose text matches `pattern`. */
function offenders(pattern: RegExp, files = sourceFiles(WORKFLOWS).filter((f) => !f.startsWith(OWNER))): string[] {
  return files.flatMap((file) => {
    // Parameter lists span lines: the scan reads each file with its line breaks folded into spaces.
    const text = fs.readFileSync(file, 'utf8');
    const hits = [...text.matchAll(new RegExp(pattern.source, 'g'))];
    return hits.map((hit) => `${path.relative(WORKFLOWS, file)}:${text.slice(0, hit.index).split('\n').length}`);
  });
}

/** A function whose parameters open with the state and the activity stubs (`(state: PromptState, acts…`). */
const STATE_ACTS = /\(\s*state\s*:\s*PromptState\s*,\s*acts\b/;

/** A write to a field of the run's ending or pause (`state.finished = true`, `state.pause = …`). */
const OWNED_WRITE = /\bstate\.(finished|terminateReason|error|pause)\s*=[^=]/;

describe('the run owner', () => {
  it('no workflow function takes (state, acts, …): a step takes the run', () => {
    expect(offenders(STATE_ACTS)).toEqual([]);
  });

  it('no Object.assign on a cursor, and no cursor field written outside the owner', () => {
    expect(offenders(/Object\.assign\(\s*cursor\b|\bcursor\.(append|length|transcriptId)\s*=[^=]/)).toEqual([]);
  });

  it('a run ends, pauses and resumes in one place: those fields are written only by the owner', () => {
    expect(offenders(OWNED_WRITE)).toEqual([]);
  });

  it('the scans see what they look for', () => {
    const sample = path.join(__dirname, 'fixtures', 'run-owner-sample.ts.txt');
    expect(offenders(STATE_ACTS, [sample])).toHaveLength(1);
    expect(offenders(/Object\.assign\(\s*cursor\b/, [sample])).toHaveLength(1);
    expect(offenders(OWNED_WRITE, [sample])).toHaveLength(2);
  });
});
