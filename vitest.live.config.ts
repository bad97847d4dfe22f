import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/live/**/*.live.test.ts"],
    pool: "forks",
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
