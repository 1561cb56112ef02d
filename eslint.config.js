// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

/** Modules that must never reach the workflow sandbox, nor the pure code it imports (the workflow layer's rule: deterministic code only). */
const SANDBOX_BANNED = [
  {
    group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'stream', 'zlib'],
    message: 'Workflow and pure code must not do I/O: use an activity.',
  },
  {
    group: ['@temporalio/activity', '@temporalio/client', '@temporalio/worker', '@temporalio/testing'],
    message: 'Not available in the workflow sandbox.',
    allowTypeImports: true,
  },
  {
    group: ['@google/genai', 'pino'],
    message: 'Model calls and logging belong to activities and the worker.',
    allowTypeImports: true,
  },
  {
    group: ['**/activities', '**/activities/*', '**/store/*', '**/cli/*', '**/server/*'],
    message: 'Import activities only as types.',
    allowTypeImports: true,
  },
];

/** src/worker/index.ts alone builds a Worker: its wiring (bundle, build id, sticky timeout) is shared. */
const WORKER_CREATE = {
  selector: "CallExpression[callee.object.name='Worker'][callee.property.name='create']",
  message: 'Build workers in src/worker/index.ts.',
};

/**
 * The workflow layer's one-way imports: api.ts < state, run (the run's owner) < hooks < calls, guards < prompt <
 * the workflows themselves. Each folder is told what it may not reach, so a circle cannot come back.
 */
const WORKFLOW_LAYERS = {
  'src/workflows/api.ts': /^\.\//,
  'src/workflows/state/*.ts': /^\.\.\/(hooks|calls|guards|prompt)(\/|$)|^\.\.\/[a-z-]+-workflow$/,
  'src/workflows/run/*.ts': /^\.\.\/(hooks|calls|guards|prompt)(\/|$)|^\.\.\/[a-z-]+-workflow$/,
  'src/workflows/hooks/*.ts': /^\.\.\/(calls|guards|prompt)(\/|$)|^\.\.\/[a-z-]+-workflow$/,
  'src/workflows/calls/*.ts': /^\.\.\/(guards|prompt)(\/|$)|^\.\.\/[a-z-]+-workflow$/,
  'src/workflows/guards/*.ts': /^\.\.\/(calls|prompt)(\/|$)|^\.\.\/[a-z-]+-workflow$/,
  'src/workflows/prompt/*.ts': /^\.\.\/[a-z-]+-workflow$/,
};

const layerBlocks = Object.entries(WORKFLOW_LAYERS).map(([files, banned]) => ({
  files: [files],
  ignores: ['**/*.test.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          ...SANDBOX_BANNED,
          {
            regex: banned.source,
            message: 'Workflow layers import one way: api < state, run < hooks < calls, guards < prompt.',
          },
        ],
      },
    ],
  },
}));

module.exports = tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', '.tools/**', 'coverage/**', 'demo/workspace/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Prettier wraps code at 120 columns; what it cannot wrap is a long literal, kept whole where splitting hides it.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 220, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 45, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/workflows/**/*.ts', 'src/core/**/*.ts', 'src/tools/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: SANDBOX_BANNED }],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Configuration is read at the process edge (src/config/env.ts).' },
      ],
    },
  },
  ...layerBlocks,
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/worker/index.ts'],
    rules: { 'no-restricted-syntax': ['error', WORKER_CREATE] },
  },
  {
    // The CLI renders; src/client/ is the one place that talks to Temporal (starts, signals, updates,
    // queries), so a message's name and payload are written once. Type imports stay allowed.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@temporalio/*'], message: 'Talk to Temporal through src/client.', allowTypeImports: true },
            {
              group: ['**/workflows', '**/workflows/*'],
              message: 'Message definitions are sent by src/client.',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(workflow|workflowService|operatorService|connection)$/]',
          message: 'Handles, messages and services belong to src/client: call its functions.',
        },
        WORKER_CREATE,
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
        Headers: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
