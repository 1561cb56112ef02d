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

/**
 * A write to any piece of a prompt's state (`state.x = …`, `state.x.y += …`, `state.x.push(…)`,
 * `Object.assign(state…`): the owner's modules in run/ are the only writers.
 */
const STATE_WRITE = new RegExp(
  String.raw`\bstate\.[A-Za-z_$][\w$]*(?:\.[\w$]+|\[[^\]]+\])*\s*(?:=(?![=>])|\+\+|--|[-+*]=|(?:\|\||\?\?|&&)=)` +
    String.raw`|\bstate\.[\w$.]+\.(?:push|splice|set|delete|shift|pop|unshift|clear|sort)\(` +
    String.raw`|Object\.assign\(\s*state\b`,
);

/** A write to a call record of the book (`record.status = …`): run/book.ts moves calls on. */
const RECORD_WRITE = /\b(?:record|call)\.(?:status|outcome|decision|args)\s*=(?![=>])/;

/** The session workflow's `state` is the session's own (SessionState), not a prompt's. */
const SESSION_FILES = ['session-workflow.ts', 'session-commands.ts', 'session-rewind.ts'].map((name) =>
  path.join(WORKFLOWS, name),
);

function promptFiles(): string[] {
  return sourceFiles(WORKFLOWS).filter((f) => !f.startsWith(OWNER) && !SESSION_FILES.includes(f));
}

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

  it('PromptState and its call records are written only by the owner (src/workflows/run/)', () => {
    expect(offenders(STATE_WRITE, promptFiles())).toEqual([]);
    expect(offenders(RECORD_WRITE, promptFiles())).toEqual([]);
  });

  it('the scans see what they look for', () => {
    const sample = path.join(__dirname, 'fixtures', 'run-owner-sample.ts.txt');
    expect(offenders(STATE_ACTS, [sample])).toHaveLength(1);
    expect(offenders(/Object\.assign\(\s*cursor\b/, [sample])).toHaveLength(1);
    expect(offenders(OWNED_WRITE, [sample])).toHaveLength(2);
    expect(offenders(STATE_WRITE, [sample])).toHaveLength(5);
    expect(offenders(RECORD_WRITE, [sample])).toHaveLength(1);
  });
});
