import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "tests/.tmp/", "data/", "public/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // In a cycle, import order decides which module sees the other half-built, and the layers
    // (doors, services, integrations) stop being layers.
    files: ["{server,app,db}/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: { ...importX.flatConfigs.typescript.settings, "import-x/resolver-next": [createTypeScriptImportResolver()] },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // The environment is read once, in server/config.ts, and checked there; the store's code reads
    // ctx.config. Entry points (server.js, scripts, the Vite and Vitest configs, Remix's route
    // config, read at build time), tests and benchmarks set up processes and may read it.
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: [
      "server/config.ts",
      "server.js",
      "scripts/**",
      "tests/**",
      "bench/**",
      "vite.config.ts",
      "vitest.config.ts",
      "vitest.postgres.config.ts",
      "app/routes.ts",
      "eslint.config.js",
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read the environment in server/config.ts (its zod schema) and use ctx.config." },
      ],
    },
  },
  {
    // The e2e tests run in any order (tests/e2e/run.ts): their test and describe come from ./browser.
    files: ["tests/e2e/**/*.e2e.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "node:test",
              importNames: ["test", "it", "describe", "suite"],
              message: "Take test and describe from ./browser: they honour E2E_ORDER (see the note in tests/e2e/run.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // Every body is read through server/http/request-body.ts, within its limit (decision 0040);
    // uploads stream to disk with limits of their own.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    ignores: ["server/http/request-body.ts", "server/api/routes/admin-products.ts", "server/api/routes/admin-settings.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='request'][callee.property.name=/^(text|json|formData|arrayBuffer|blob)$/]",
          message: "Read a request's body with readForm, readJson or readText (server/http/request-body.ts): they cap its size.",
        },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
);
