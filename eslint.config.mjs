import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/** Imports that every file avoids; the chain's clients are added for files outside src/chain/ below. */
const RESTRICTED_IMPORTS = {
  paths: [
    {
      name: 'class-transformer',
      importNames: ['Type'],
      message: 'Use NestedType (common/validation/nested-type): the validation pipe reads the class it records.',
    },
  ],
  patterns: [
    {
      // A package's compiled folders are its private files: import what its entry points or `exports` offer.
      regex: '^(@[^/]+/)?[^./@][^/]*/(.+/)?(cjs|esm|dist|lib|types)(/|$)',
      message: "A library's private files: use its public entry points.",
    },
  ],
};

/** One door to the chain: a JSON-RPC client (ethers' providers, viem's clients and transports) comes from chain/. */
const CHAIN_CLIENT =
  'One door to the chain: take a client from src/chain/ (jsonRpcProvider, EnsChain), never make one.';
const CHAIN_CLIENTS = [
  {
    name: 'ethers',
    importNames: [
      'ethers',
      'JsonRpcProvider',
      'JsonRpcApiProvider',
      'BrowserProvider',
      'WebSocketProvider',
      'SocketProvider',
      'IpcSocketProvider',
      'FallbackProvider',
      'getDefaultProvider',
      'InfuraProvider',
      'AlchemyProvider',
      'AnkrProvider',
      'CloudflareProvider',
      'EtherscanProvider',
      'PocketProvider',
      'QuickNodeProvider',
      'ChainstackProvider',
      'BlockscoutProvider',
      'FetchRequest',
    ],
    message: CHAIN_CLIENT,
  },
  {
    name: 'viem',
    importNames: [
      'createClient',
      'createPublicClient',
      'createWalletClient',
      'createTestClient',
      'http',
      'webSocket',
      'fallback',
      'custom',
    ],
    message: CHAIN_CLIENT,
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', RESTRICTED_IMPORTS],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        console: 'readonly',
        process: 'readonly',
      },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The portal's page: browser ES modules.
    files: ['src/portal/public/**/*.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    // The service's files outside chain/ (specs and test/ play wallets and dapps, which make their own clients).
    files: ['src/**/*.ts'],
    ignores: ['src/chain/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...RESTRICTED_IMPORTS.paths, ...CHAIN_CLIENTS],
          patterns: [
            ...RESTRICTED_IMPORTS.patterns,
            { regex: '^(ethers/providers|viem/(clients|transports))', message: CHAIN_CLIENT },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
