import { defaultPolicy, EDIT_TOOLS, READ_ONLY_TOOLS } from '../core/policy/defaults';
import { toolNames } from './index';

/** A rule naming a tool no one declares never matches: it hides a typo or a tool that was never built. */
describe('the tool names of the built-in policy', () => {
  const named = (names: string | readonly string[] | undefined) =>
    (typeof names === 'string' ? [names] : (names ?? [])).filter((name) => name !== '*');

  it('are all declared tools', () => {
    const listed = [
      ...READ_ONLY_TOOLS,
      ...EDIT_TOOLS,
      ...defaultPolicy('plans').flatMap((rule) => named(rule.toolName)),
    ];
    expect([...new Set(listed)].filter((name) => !toolNames.includes(name))).toEqual([]);
  });
});
