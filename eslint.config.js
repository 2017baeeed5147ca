import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

/**
 * app/ reaches the server through its doors (issue 22): a route's loader and action call a door in
 * server/http, which reads the request and calls the services. Nothing in app/ imports a service,
 * an integration or the database itself. `\b` also covers the path aliases (`#server/services`, `#db`).
 */
const THROUGH_THE_DOORS = {
  regex: "\\bserver/(services|integrations)(/|$)|(^|/|#)db(/|$)",
  message:
    "app/ reaches services, integrations and the database only through a door in server/http (a route's loader/action calls e.g. server/http/doors/cart-door.ts).",
};

const SERVER_CODE = ["app/**/*.{ts,tsx}", "server/**/*.ts"];

// Every body is read through server/http/requests/request-body.ts, within its limit (decision 0040);
// uploads stream to disk with limits of their own.
const BODY_READERS = ["server/http/requests/request-body.ts", "server/api/routes/admin-products.ts", "server/api/routes/admin-settings.ts"];
const readBodyWithinLimit = {
  selector: "CallExpression[callee.object.name='request'][callee.property.name=/^(text|json|formData|arrayBuffer|blob)$/]",
  message: "Read a request's body with readForm, readJson or readText (server/http/requests/request-body.ts): they cap its size.",
};

// Who may keep an answer is decided in one module (issue 22): a Cache-Control value spelled out
// anywhere else is refused. Cookie Max-Age and HSTS's max-age (followed by ";") are not matched,
// nor fetch's own `cache: "no-store"` option.
const CACHE_CONTROL_MODULE = "server/http/cache/cache-control.ts";
const CACHE_CONTROL_VALUE = "/no-store|no-cache|immutable|s-maxage|stale-while-revalidate|max-age=([0-9]+ *(,|$)|$)/";
const cacheControlMessage = "Name the policy in server/http/cache/cache-control.ts and use it: Cache-Control values live there only.";
const cacheControlInOneModule = [
  {
    selector: `Literal[value=${CACHE_CONTROL_VALUE}]:not(Property[key.name='cache'] > Literal)`,
    message: cacheControlMessage,
  },
  { selector: `TemplateElement[value.raw=${CACHE_CONTROL_VALUE}]`, message: cacheControlMessage },
];

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
  // no-restricted-syntax is one rule: a later block replaces an earlier one's selectors for the
  // files both match, so each block below lists every selector its files need.
  {
    files: SERVER_CODE,
    ignores: [...BODY_READERS, CACHE_CONTROL_MODULE],
    rules: { "no-restricted-syntax": ["error", readBodyWithinLimit, ...cacheControlInOneModule] },
  },
  {
    files: BODY_READERS,
    rules: { "no-restricted-syntax": ["error", ...cacheControlInOneModule] },
  },
  {
    files: [CACHE_CONTROL_MODULE],
    rules: { "no-restricted-syntax": ["error", readBodyWithinLimit] },
  },
  {
    files: ["server.js", "scripts/**/*.{js,mjs,ts}"],
    rules: { "no-restricted-syntax": ["error", ...cacheControlInOneModule] },
  },
  {
    // The doors (pages, REST, tRPC) call services; only services talk to Stripe, Shippo and Postmark.
    files: ["server/http/**/*.ts", "server/api/**/*.ts", "server/trpc/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "(^|/)integrations(/|$)", message: "Doors never import server/integrations: call a service that does." }] },
      ],
    },
  },
  {
    // Services take plain values, never a request or its headers (DESIGN: "Services never see a
    // Request"): the doors read cookies and headers and hand the service what they mean.
    files: ["server/services/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)(http|api|trpc)(/|$)",
              message: "Services never import the doors (server/http, server/api, server/trpc): the door passes plain values.",
            },
          ],
        },
      ],
    },
  },
  {
    // db/ knows the schema and the engines, nothing of the store that uses it (decision 0016).
    files: ["db/**/*.ts"],
    ignores: ["db/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "(^|/|#)(server|app)(/|$)", message: "db/ imports nothing from server/ or app/." }] },
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
