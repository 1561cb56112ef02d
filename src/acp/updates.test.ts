import type { FollowItem } from '../client/follow';
import type { AgentEventBody } from '../core/events';
import { acpKind, acpUpdates, newUpdateView } from './updates';

const event = (body: AgentEventBody, seq = 0): FollowItem => ({
  kind: 'event',
  event: { ...body, seq, time: '2026-11-28T00:00:00Z' } as FollowItem extends { event: infer E } ? E : never,
});
const piece = (turn: number, text: string, kind: 'text' | 'thought' = 'text'): FollowItem => ({
  kind: 'piece',
  piece: { turn, attempt: 'a', seq: 0, kind, text },
});

describe('acpUpdates', () => {
  it('streams text once: live pieces, then only what the recorded turn adds', () => {
    const view = newUpdateView('/ws');
    const out = [piece(1, 'Hel'), piece(1, 'lo'), event({ type: 'content', turn: 1, text: 'Hello there' })].flatMap(
      (item) => acpUpdates(view, item),
    );
    expect(out).toEqual(
      ['Hel', 'lo', ' there'].map((t) => ({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: t },
      })),
    );
  });

  it('shows a recorded thought unless it streamed live', () => {
    const view = newUpdateView('/ws');
    const thought = event({ type: 'thought', turn: 1, subject: 'Plan', description: 'read first' });
    expect(acpUpdates(view, thought)).toEqual([
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: '**Plan** read first' } },
    ]);
    acpUpdates(view, piece(2, 'thinking', 'thought'));
    expect(acpUpdates(view, event({ type: 'thought', turn: 2, subject: 'x', description: 'y' }))).toEqual([]);
  });

  it('titles a shell call by its command, not the directory it runs in', () => {
    const args = { command: 'npm test\nnpm run lint', dir_path: 'pkg' };
    const [update] = acpUpdates(
      newUpdateView('/ws'),
      event({ type: 'tool_call_request', turn: 1, callId: 'c1', name: 'run_shell_command', args }),
    );
    expect(update).toMatchObject({ title: 'run_shell_command: npm test', kind: 'execute' });
  });

  it('announces an edit with its kind, location and diff, and ends it with its result', () => {
    const view = newUpdateView('/ws');
    const args = { file_path: 'a.txt', old_string: 'one', new_string: 'two' };
    expect(
      acpUpdates(view, event({ type: 'tool_call_request', turn: 1, callId: 'c1', name: 'replace', args })),
    ).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'replace: a.txt',
        kind: 'edit',
        status: 'pending',
        rawInput: args,
        locations: [{ path: '/ws/a.txt' }],
        content: [{ type: 'diff', path: '/ws/a.txt', oldText: 'one', newText: 'two' }],
      },
    ]);
    const done = event({ type: 'tool_call_response', callId: 'c1', name: 'replace', ok: false, preview: 'no match' });
    expect(acpUpdates(view, done)).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'no match' } }],
      },
    ]);
  });

  it('writes a new file as a diff from nothing', () => {
    const view = newUpdateView('/ws');
    const args = { file_path: '/abs/b.txt', content: 'new' };
    const [call] = acpUpdates(
      view,
      event({ type: 'tool_call_request', turn: 1, callId: 'c', name: 'write_file', args }),
    );
    expect(call).toMatchObject({ content: [{ type: 'diff', path: '/abs/b.txt', oldText: null, newText: 'new' }] });
  });

  it('maps tool kinds, the ones ACP lacks and MCP tools to other', () => {
    expect(acpKind('run_shell_command')).toBe('execute');
    expect(acpKind('read_file')).toBe('read');
    expect(acpKind('grep_search')).toBe('search');
    expect(acpKind('ask_user')).toBe('other');
    expect(acpKind('mcp_srv_tool')).toBe('other');
  });

  it('turns todos into a plan with ACP’s three states', () => {
    const todos = [
      { description: 'a', status: 'in_progress' },
      { description: 'b', status: 'blocked' },
      { description: 'c', status: 'cancelled' },
    ] as const;
    expect(acpUpdates(newUpdateView('/ws'), event({ type: 'todos', todos: [...todos] }))).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'a', priority: 'medium', status: 'in_progress' },
          { content: 'b', priority: 'medium', status: 'pending' },
          { content: 'c', priority: 'medium', status: 'completed' },
        ],
      },
    ]);
  });

  it('replays the user’s messages only when asked to', () => {
    const prompt = event({ type: 'user_prompt', text: 'hi' });
    expect(acpUpdates(newUpdateView('/ws'), prompt)).toEqual([]);
    expect(acpUpdates(newUpdateView('/ws', true), prompt)).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } },
    ]);
  });

  it('tells mode changes and errors', () => {
    const view = newUpdateView('/ws');
    expect(acpUpdates(view, event({ type: 'approval_mode', mode: 'plan' }))).toEqual([
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
    ]);
    const [err] = acpUpdates(view, event({ type: 'error', errorType: 'Quota', message: 'out' }));
    expect(err).toMatchObject({ sessionUpdate: 'agent_message_chunk', content: { text: '\n[Quota: out]\n' } });
  });
});
