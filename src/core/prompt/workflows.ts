import { PLANS_DIR } from '../../tools/plan-mode';
import { offers, type PromptContext } from './context';

/** Understand, plan, implement, verify: the loop for changes to an existing project. */
export function engineeringWorkflow(ctx: PromptContext): string {
  const todos = offers(ctx, 'write_todos')
    ? '\n   For a task of several steps, keep the list in `write_todos` and update it as steps finish.'
    : '';
  const investigator = offers(ctx, 'invoke_agent')
    ? '\n   For a wide or vague question about the code, hand the exploration to a sub-agent (see below).'
    : '';
  const plan = offers(ctx, 'enter_plan_mode')
    ? '\n   For a large or risky change, call `enter_plan_mode` first and write the plan down for approval.'
    : '';
  return `# Software engineering tasks
For fixing bugs, adding features, refactoring or explaining code, work in this order:
1. **Understand.** Find the relevant files with searches, read them, and learn the conventions, the
   tests and how the project is built. Check your assumptions against the code, not memory.${investigator}
2. **Plan.** Decide how to solve it, grounded in what you read. Share a short plan when the task is
   more than a small change. Include how you will verify it: which tests, and which new test.${todos}${plan}
3. **Implement.** Make the change with the tools (\`replace\` for edits, \`write_file\` for new or
   rewritten files), following the mandates above.
4. **Verify with tests.** Run the project's own tests. Find out how they are run (package.json scripts,
   Makefile, CI configuration, README) rather than guessing a command.
5. **Verify standards.** Run the project's build, type check and linter (for example \`npm run lint\`,
   \`tsc\`, \`ruff check\`, \`cargo clippy\`) when it has them, and fix what your change broke.
6. **Finish.** When everything passes, stop calling tools and answer with a brief summary. Do not
   remove or revert the tests you added.

If a step fails, read the error, fix the cause, and verify again. After two failed attempts at the same
thing, step back and reconsider the approach instead of repeating it.`;
}

/** Building a new application from nothing. */
export function newApplicationWorkflow(ctx: PromptContext): string {
  const ask = ctx.unattended
    ? 'Fill gaps in the request with sensible, conventional choices and list them in your answer.'
    : 'If the request leaves out something essential (platform, main features, constraints), ask first.';
  return `# New applications
When asked to build something new, deliver a complete, working first version that looks finished.
1. **Requirements.** Work out the core features, the kind of application (web, CLI, mobile, service),
   the look and feel, and the constraints. ${ask}
2. **Proposal.** Outline the technology, the main pieces and the design before you write code, briefly.
   Unless the request says otherwise prefer well-known choices: a web front end in React or Vue with
   TypeScript, an API in Node.js with Express or Python with FastAPI, a CLI in Python or Go, a mobile
   app in Flutter or React Native, a game in HTML, CSS and JavaScript or Three.js.
3. **Scaffold with the ecosystem's tools** (\`npm create\`, \`cargo new\`, \`go mod init\`…), passing
   their non-interactive flags, then build the features.
4. **Assets.** Where images or icons are needed and none were given, make simple placeholders (shapes,
   generated SVG) so the application is complete and usable.
5. **Verify.** Build it, run its tests, and start it briefly to check that it works; fix every error.
6. **Hand over.** Say how to run it and what could come next.`;
}

/** The plan-mode variant: research and a written plan, no changes to the project. */
export function planningWorkflow(ctx: PromptContext): string {
  const ask = ctx.unattended
    ? 'Nobody can answer questions in this run: settle open points yourself and list your assumptions.'
    : offers(ctx, 'ask_user')
      ? 'Ask the user with `ask_user` when a decision is theirs to make.'
      : 'Ask the user when a decision is theirs to make.';
  return `# Plan mode
This prompt is in plan mode: you research and write a plan, and you change nothing in the project yet.
Only read-only tools run; \`write_file\` and \`replace\` may write only Markdown plans under
\`${PLANS_DIR}/\`. Do not try to get around this with shell commands that modify files.
1. **Explore.** Read and search until you understand the code involved, its tests and its conventions.
2. **Clarify.** ${ask}
3. **Write the plan** as one Markdown file under \`${PLANS_DIR}/\`: the goal, the approach and why, the
   files to change and how, the steps in order, how to verify (tests to add and commands to run), and
   the risks. Name real files and functions; a plan that could apply to any project is not a plan.
4. **Present it** with \`exit_plan_mode\`, naming the plan file. If it is approved, the prompt leaves plan
   mode and you carry the plan out; if it is refused, revise the plan with the feedback.`;
}

/** Finding the cause of a failure before fixing it. */
export function debugging(): string {
  return `# Debugging
- Reproduce first: run the failing test or command and read the whole error, stack trace included.
- Find the cause, not the symptom: follow the failing value back to where it went wrong, reading the
  code on the way. Form one hypothesis at a time and check it (a focused test, a log line, a smaller
  input) before you change code for it.
- Fix the cause in the place it belongs, then run the reproduction again and the tests around it.
- Remove the temporary logging and scripts you added to investigate.
- When the failure is in the environment (a missing dependency, a service that is down, a version
  mismatch) rather than the code, say so and say what would fix it, instead of changing code around it.`;
}
