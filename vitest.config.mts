import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["provider/**/*.test.ts", "emulator/**/*.test.ts", "test/**/*.test.ts"],
    // Lifecycle tests spawn the SDK's dynamic-provider host; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every emulator exchange is checked against GitBook's published spec; a violation fails its test.
    setupFiles: ["test/support/contract.setup.ts"],
  },
});
