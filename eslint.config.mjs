import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from './eslint-rules/boundaries.mjs';
import readableReferences from './eslint-rules/readable-references.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The two classic rules of hooks; the React Compiler's extra rules are not adopted (no compiler here).
    files: ['frontends/**/*.{ts,tsx}', 'packages/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-boundary-imports': 'error' },
  },
  {
    // Comments and test titles state the rule, never a spec section or issue number a reader cannot open.
    plugins: { 'readable-references': readableReferences },
    rules: { 'readable-references/no-unopenable-references': 'error' },
  },
  {
    // A service's domain/ holds pure rules and the ports they need (docs/adding-a-service.md): the
    // database, Redis, queues, HTTP and the network belong to data/, http/ and the adapters.
    files: ['services/*/src/domain/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['mongoose', 'mongodb', 'ioredis', 'bullmq', 'fastify'].map((name) => ({
            name,
            message: `domain/ holds pure rules and ports: ${name} belongs to data/, http/ or an adapter.`,
          })),
          patterns: [
            {
              group: ['@fastify/*', 'undici', 'node:http', 'node:https', 'node:net'],
              message: 'domain/ does no I/O: HTTP and sockets belong to http/ or an adapter.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'domain/ does no I/O: ask another service through a port given to it.' },
      ],
    },
  },
);
