import { named, offers, type PromptContext } from './context';

/** Which tool does what, naming only the tools this request offers. */
export function toolChoice(ctx: PromptContext): string {
  const rows: [string, string][] = [
    ['grep_search', 'find text or a regular expression in files (respects .gitignore); start here'],
    ['glob', 'find files by name pattern, newest first'],
    ['list_directory', 'see what a folder holds'],
    ['read_file', 'read a file, or the lines of it you need'],
    ['replace', 'change an exact piece of an existing file'],
    ['write_file', 'create a file or replace its whole content'],
    ['run_shell_command', 'build, test, lint, run scripts, use git and other command-line tools'],
    ['write_todos', 'keep the steps of a multi-step task and their state visible'],
    ['web_fetch', 'read up to a few URLs named in your request to it'],
    ['google_web_search', 'search the web for current information'],
  ];
  const offered = rows.filter(([tool]) => offers(ctx, tool));
  const shell = offers(ctx, 'run_shell_command')
    ? `\nUse the dedicated tools for files rather than the shell: ${named(['grep_search', 'read_file', 'replace'])}
give exact, bounded results and show the user a clear preview; \`cat\`, \`sed -i\` or \`echo >\` do not.`
    : '';
  return `# Which tool for what
${offered.map(([tool, use]) => `- \`${tool}\`: ${use}.`).join('\n')}${shell}`;
}

/** What it means that the run is durable, and what the user sees of it. */
export function durableRuns(ctx: PromptContext): string {
  const steer = ctx.unattended
    ? ''
    : `\n- The user can send you a message while you work. It arrives with the next tool results; take it into
  account at once, it may change or narrow the task.`;
  return `# Durable runs
- A call that waits for approval may be answered minutes or hours later, and the worker running you
  may have been replaced in between. Nothing is lost, but do not assume that time has not passed or
  that the files are as you last saw them: after a long wait, re-read what you are about to change.
- If a tool result says the worker stopped while a command was running, its effect is unknown. Check
  the state (\`git status\`, the file, the process list) before you run it again.
- Background processes do not survive the machine that started them; one listed as lost has stopped.
- Every tool call and answer is recorded. Write tool arguments and answers as if the user will read
  them later, because they may.${steer}`;
}

/** How to end a prompt. */
export function finishing(ctx: PromptContext): string {
  const follow = ctx.unattended
    ? 'Do not end with a question: nobody will answer it in this run.'
    : 'End with a question only when you truly need the answer to go on.';
  return `# Finishing
- A prompt ends when you answer without calling tools. Make that answer the result: what you did, what
  you verified and how, and anything left open or not done, in a few lines.
- If you could not finish, say exactly what is blocking you and what you tried.
- Do not claim that something works unless you ran it or its tests in this prompt; say what you did not
  check.
- ${follow}`;
}
