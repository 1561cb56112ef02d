/**
 * What a newcomer sees of their prompts: `run` names the prompt's page in the Web UI of the server
 * it started, and `list` shows each prompt's first line, workspace, host and state, newest first.
 */
import { textResponse } from '../../src/fake-gemini';
import { expectExit, freePortWithUi, sandboxesCleanedAfterEach } from '../helpers/cli';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

test('run prints the Web UI address; list shows first lines, workspace, host and state, newest first', async () => {
  const port = await freePortWithUi();
  const box = sandbox('list', `127.0.0.1:${port}`);
  const ids: string[] = [];
  for (const [prompt, answer] of [
    ['fix the tests\nthey fail on CI', 'fixed'],
    ['write the changelog', 'written'],
  ]) {
    const script = box.script([textResponse(answer)]);
    const run = await box.run(['run', prompt, '--fake-responses', script, '-w', box.workspace]);
    expectExit(run, 0);
    const id = /prompt (prompt-\S+) started/.exec(run.stderr)![1];
    expect(run.stderr).toContain(`Web UI: http://127.0.0.1:${port + 1000}/namespaces/default/workflows/${id}\n`);
    ids.push(id);
  }
  // `list` needs the server the runs started and stopped: its state is in the home's SQLite file.
  const server = box.start(['server', '--no-spare']);
  try {
    const lines = await eventuallyList(box, ['list']);
    expect(lines).toMatch(
      new RegExp(`^${ids[1]}  prompt   completed .*  \\S+  ${escape(box.workspace)}\\n    write the changelog\\n`),
    );
    expect(lines.indexOf(ids[1])).toBeLessThan(lines.indexOf(ids[0]));
    expect(lines).toContain(`\n    fix the tests\n`);

    const json = await box.run(['list', '--json', '--limit', '1', '--status', 'completed']);
    expectExit(json, 0);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      expect.objectContaining({ workflowId: ids[1], summary: 'write the changelog', host: expect.any(String) }),
    ]);
    const none = await box.run(['list', '--status', 'running']);
    expect(none.stdout).toBe('no prompts yet\n');

    const bad = await box.run(['list', '--status', 'done']);
    expectExit(bad, 42);
    expect(bad.stderr).toMatch(/--status.*done.*running, completed/);
    expectExit(await box.run(['list', '--limit', '0']), 42);
  } finally {
    server.kill('SIGTERM');
    await server.done;
  }
});

test('list marks a running prompt whose task queue no worker polls, in text and in --json', async () => {
  const box = sandbox('list-unserved', `127.0.0.1:${await freePortWithUi()}`);
  const server = box.start(['server', '--no-spare'], { env: { GEMINI_API_KEY: 'never-used' } });
  try {
    await server.waitFor('stderr', /Ctrl-C stops/, 120_000);
    // The server's worker polls the default queue only: a prompt sent to another waits for a worker.
    const env = { DURABLE_AGENT_TASK_QUEUE: 'nobody-polls-this', GEMINI_API_KEY: 'never-used' };
    const started = await box.run(['run', 'left waiting', '--detach', '-w', box.workspace], { env });
    expectExit(started, 0);
    const id = started.stdout.trim();
    const text = await box.run(['list']);
    expectExit(text, 0);
    expect(text.stdout).toMatch(new RegExp(`^${id}  prompt   running .*  \\(no worker serves its queue\\)\\n`, 'm'));
    const json = await box.run(['list', '--json', '--status', 'running']);
    expect(JSON.parse(json.stdout.trim())).toEqual(expect.objectContaining({ workflowId: id, served: false }));
  } finally {
    server.kill('SIGTERM');
    await server.done;
  }
});

/** `list` once the server answers (it was just started). */
async function eventuallyList(box: ReturnType<typeof sandbox>, args: string[]): Promise<string> {
  for (;;) {
    const result = await box.run(args);
    if (result.code === 0) return result.stdout;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
