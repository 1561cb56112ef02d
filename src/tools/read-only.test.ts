import { READ_ONLY_TOOLS } from '../core/policy/defaults';
import { TOOLS } from './index';

/** The default policy allows READ_ONLY_TOOLS in every mode without asking: the list must match what the tools do. */
describe('the read-only tools of the default policy', () => {
  it('include every registered tool that only reads or searches', () => {
    const readers = TOOLS.filter((tool) => tool.kind === 'read' || tool.kind === 'search').map((tool) => tool.name);
    expect(readers).toContain('read_tool_output');
    // web_fetch only reads, but what it reads is the network: Gemini CLI's policy asks for it.
    expect(readers.filter((name) => !READ_ONLY_TOOLS.includes(name))).toEqual(['web_fetch']);
  });

  // complete_task only ends a sub-agent's run; write_todos and update_topic only change the prompt's list and chapters.
  it('hold no registered tool that edits, executes or starts an agent', () => {
    const others = TOOLS.filter((tool) => READ_ONLY_TOOLS.includes(tool.name))
      .filter((tool) => tool.kind !== 'read' && tool.kind !== 'search')
      .map((tool) => tool.name);
    expect(others).toEqual(['complete_task', 'write_todos', 'update_topic']);
  });
});
