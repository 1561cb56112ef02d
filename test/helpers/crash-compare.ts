import type { Content } from '@google/genai';
import { logLineOf, SHELL_FILES } from './crash-script';
import type { SessionOutcome } from './crash-run';
import { SESSION_CONTEXT_TAG } from '../../src/activities/session-context';

/** A function response that legitimately differs from the reference run: a resumed interrupted call. */
export interface ResumedCall {
  callId: string;
  name: string;
  kind: 'outcome unknown' | 'already in place';
  /** For an outcome-unknown command: whether it had run (its log line is there) or not at all. */
  ran?: boolean;
}

export interface Comparison {
  failures: string[];
  resumed: ResumedCall[];
}

type Part = {
  text?: string;
  functionCall?: { id?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
};

/**
 * Compares a crashed run with the uninterrupted one: the same transcript message for message, the
 * same files with the same contents, no side-effect line twice, no unexpected model call.
 *
 * Allowed differences, all from a call a crash caught mid-execution: its function response is the
 * designed answer ("outcome unknown" for a shell command, "already in place" for write_file and
 * replace); and a shell command answered "outcome unknown" may have run once or not at all (a
 * kill between its journal mark and its start), so when its log line is missing, its own line and
 * the files it writes are exempt, though a counter it bumps must not exceed the reference, and a
 * later read-only tool's output may differ only in lines that name those files.
 */
export function compareRuns(reference: SessionOutcome, run: SessionOutcome): Comparison {
  const failures = run.unexpectedModelCalls.map((m) => `unexpected model call: ${m}`);
  const reads: ReadDifference[] = [];
  const resumed = compareTranscripts(reference.transcript, run.transcript, failures, reads);
  const log = lines(run.workspace['effects.log']);
  const notRun = new Set<string>();
  for (const call of resumed.filter((r) => r.kind === 'outcome unknown')) {
    const line = logLineOf(String(callArgs(reference.transcript, call.callId)?.command ?? ''));
    call.ran = line !== undefined && log.includes(line);
    if (line && !call.ran) notRun.add(line);
  }
  const exempt = new Set([...notRun].flatMap((line) => SHELL_FILES[line] ?? []));
  // A later listing or read sees the workspace without the files of a command that never ran.
  for (const read of reads) if (!explainedBy(exempt, read)) failures.push(read.failure);
  const twice = log.filter((line, i) => log.indexOf(line) !== i);
  if (twice.length) failures.push(`side effects repeated: ${twice.join(', ')}`);
  const expectedLog = lines(reference.workspace['effects.log']).filter((line) => !notRun.has(line));
  if (JSON.stringify(log) !== JSON.stringify(expectedLog))
    failures.push(`effects.log ${JSON.stringify(log)}, expected ${JSON.stringify(expectedLog)}`);
  for (const file of new Set([...Object.keys(reference.workspace), ...Object.keys(run.workspace)])) {
    const [want, got] = [reference.workspace[file], run.workspace[file]];
    if (file === 'effects.log' || want === got) continue;
    if (exempt.has(file) && (file !== 'count.txt' || Number(got ?? 0) <= Number(want))) continue;
    failures.push(`workspace ${file}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  return { failures, resumed };
}

/** A read-only tool's output that differs from the reference's: allowed only if exempt files explain it. */
interface ReadDifference {
  expected: string;
  actual: string;
  failure: string;
}

const READ_TOOLS = new Set(['list_directory', 'read_file', 'glob', 'grep_search']);

function explainedBy(exempt: Set<string>, read: ReadDifference): boolean {
  if (exempt.size === 0) return false;
  const without = (text: string) =>
    text
      .split('\\n')
      .filter((line) => ![...exempt].some((file) => line.includes(file)))
      .join('\\n');
  return without(read.expected) === without(read.actual);
}

function compareTranscripts(
  reference: Content[],
  run: Content[],
  failures: string[],
  reads: ReadDifference[],
): ResumedCall[] {
  const resumed: ResumedCall[] = [];
  if (run.length !== reference.length)
    failures.push(`transcript has ${run.length} messages, expected ${reference.length}`);
  reference.forEach((expected, i) => {
    const actual = run[i];
    if (!actual || actual.role !== expected.role || (actual.parts?.length ?? 0) !== (expected.parts?.length ?? 0)) {
      failures.push(`transcript message ${i} differs: ${JSON.stringify(actual)}`);
      return;
    }
    (expected.parts ?? []).forEach((part, j) => {
      const got = actual.parts![j] as Part;
      if (JSON.stringify(got) === JSON.stringify(part)) return;
      // The environment the first message carries names each run's own workspace folder.
      if (isSessionContext(part as Part) && isSessionContext(got)) return;
      const kind = resumedKind(part as Part, got);
      const failure = `transcript message ${i} part ${j}: ${JSON.stringify(got)}, expected ${JSON.stringify(part)}`;
      if (kind)
        resumed.push({ callId: String(got.functionResponse!.id), name: String(got.functionResponse!.name), kind });
      else if (
        READ_TOOLS.has(String(got.functionResponse?.name)) &&
        got.functionResponse?.name === (part as Part).functionResponse?.name
      ) {
        reads.push({ expected: JSON.stringify(part), actual: JSON.stringify(got), failure });
      } else failures.push(failure);
    });
  });
  return resumed;
}

function isSessionContext(part: Part): boolean {
  return typeof part.text === 'string' && part.text.startsWith(`<${SESSION_CONTEXT_TAG}>`);
}

function resumedKind(expected: Part, actual: Part): ResumedCall['kind'] | undefined {
  const [e, a] = [expected.functionResponse, actual.functionResponse];
  if (!e || !a || e.id !== a.id || e.name !== a.name) return undefined;
  const text = JSON.stringify(a.response ?? {});
  if (a.name === 'run_shell_command' && text.includes('Outcome unknown: the previous attempt was interrupted'))
    return 'outcome unknown';
  if ((a.name === 'write_file' || a.name === 'replace') && /already holds this content|already in place/.test(text))
    return 'already in place';
  return undefined;
}

function callArgs(transcript: Content[], callId: string): Record<string, unknown> | undefined {
  for (const message of transcript) {
    for (const part of (message.parts ?? []) as Part[])
      if (part.functionCall?.id === callId) return part.functionCall.args;
  }
  return undefined;
}

function lines(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter(Boolean);
}
