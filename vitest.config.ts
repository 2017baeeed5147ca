import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// The Remix Vite plugin is not made for tests, so tests get their own small config.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/{unit,integration}/**/*.test.ts", "server/**/*.test.ts", "db/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts", "tests/setup/postgres-global.ts"],
    setupFiles: ["tests/setup/each-file.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
