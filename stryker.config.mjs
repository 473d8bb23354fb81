// Mutation testing of the scoring rules (`npm run test:mutation`). Slow: not part of `npm test` or .ci/run.
// Jest runs ESM here (swc, --experimental-vm-modules), so the runner gets the same node flag, and only the
// test files that exercise these modules run against each mutant. The generated-case suite
// (test/tasks/aar/scoring/paper-generated.test.ts, ~30 s) is left out: every mutant must die by a rule test.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['tasks/aar/scoring/paper.ts', 'tools/wikipedia/page-identity.ts', 'tasks/aar/scoring/args-match.ts'],
  testRunner: 'jest',
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings'],
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    enableFindRelatedTests: false,
    config: {
      testMatch: [
        '<rootDir>/test/tasks/aar/scoring/paper-rules.test.ts',
        '<rootDir>/test/tools/wikipedia/page-identity-rules.test.ts',
        '<rootDir>/test/tasks/aar/scoring/args-match-rules.test.ts',
        '<rootDir>/test/tasks/aar/scoring/paper.test.ts',
        '<rootDir>/test/tools/wikipedia/page-identity.test.ts',
      ],
    },
  },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 60000,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // re-runs test only the mutants whose code or covering tests changed (`npx stryker run --force` for all)
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
};
