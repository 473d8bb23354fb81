/** Tests mirror the source folders under test/. TypeScript is compiled by swc, as ESM. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  // A plugin's `import 'aar-harness'` is this package (as harness/plugins/resolve-hook.ts makes it outside Jest).
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^aar-harness$': '<rootDir>/index.ts' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  testTimeout: 60000,
};
