import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * app/ reaches the server through its doors (issue 22): a route's loader and action call a door in
 * server/http, which reads the request and calls the services. Nothing in app/ imports a service,
 * an integration or the database itself. `\b` also covers a path alias such as `@server/services`.
 */
const THROUGH_THE_DOORS = {
  regex: "\\bserver/(services|integrations)(/|$)|(^|/)db(/|$)",
  message:
    "app/ reaches services, integrations and the database only through a door in server/http (a route's loader/action calls e.g. server/http/cart-door.ts).",
};

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
    files: ["app/**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [THROUGH_THE_DOORS] }] },
  },
  {
    // Components and client helpers run in the browser too: of server/ they use the contracts only
    // (and the tRPC router's type, erased at build). This replaces the options above for these files.
    files: ["app/components/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            THROUGH_THE_DOORS,
            {
              regex: "\\bserver/(?!(contracts|services|integrations)(/|$))",
              allowTypeImports: true,
              message: "Components and client helpers import from server/contracts only; the data comes from the route's loader.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
);
