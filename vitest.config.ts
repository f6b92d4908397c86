import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    pool: "threads",
    // Builds the sluice command once, for the tests that start it as a child process.
    globalSetup: ["test/support/build-cli.ts"],
  },
});
