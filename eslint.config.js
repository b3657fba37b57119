// ESLint runs only the rules that need TypeScript's type checker (promises); formatting and every other rule are
// Biome's (biome.json), unused exports knip's (knip.json). Each file is checked in the first project that holds it,
// so Workers' files see their own generated Env.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const projects = [
  'workers/registry',
  'workers/chat',
  'workers/router',
  'workers/specialist',
  'workers/hosting',
  'workers/hosting-vault',
  'workers/hosting/examples',
  'test/agent-runtime',
  'pages',
  '.',
].map((folder) => `${folder}/tsconfig.json`);

export default defineConfig(
  {
    ignores: [
      'node_modules/',
      '**/dist/',
      '.wrangler/',
      'data/',
      'test-results/',
      '**/worker-configuration.d.ts',
      '**/*.generated.ts',
      '**/*.js',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: projects, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
