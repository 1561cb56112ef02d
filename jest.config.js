/** One dev server and one workflow bundle per run: see test/setup/global-setup.ts. */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: '<rootDir>/test/setup/environment.js',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The ACP library ships only ES modules: its files are compiled to CommonJS like ours.
  transform: {
    '^.+\\.ts$': 'ts-jest',
    '/node_modules/@agentclientprotocol/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true }, isolatedModules: true }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@agentclientprotocol/)'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 2,
};
