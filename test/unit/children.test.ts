/**
 * No process a test starts outlives the test run (dev/children.ts): a process that started children
 * through `killOnExit` (as every `pulumi` of dev/pulumiCli.ts is) takes them down when it is stopped
 * by SIGTERM or SIGINT (how vitest and a terminal stop a run), or exits. Each child holds the end of a
 * pipe this test reads, so the pipe ends only once every child has gone: a child left running keeps
 * it open, and the test fails on its time limit.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";

const CHILDREN = path.join(ROOT, "dist/dev/children.js");

/** A parent that starts two long-lived children through killOnExit, says so, then is stopped `how`. */
function parent(how: "SIGTERM" | "SIGINT" | "exit") {
  const script = `
    const { spawn } = require("node:child_process");
    const { killOnExit } = require(${JSON.stringify(CHILDREN)});
    const started = [0, 1].map(() => {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: ["ignore", "inherit", "inherit"] });
      killOnExit(child);
      return new Promise((resolve) => child.once("spawn", resolve));
    });
    Promise.all(started).then(() => {
      process.stdout.write("started\\n");
      if (${JSON.stringify(how)} === "exit") process.exit(0);
    });
    setInterval(() => {}, 1 << 30);
  `;
  return spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
}

describe("killOnExit", () => {
  it.each(["SIGTERM", "SIGINT", "exit"] as const)("kills the children when their parent is stopped: %s", async (how) => {
    const p = parent(how);
    let out = "";
    const ended = new Promise<void>((resolve) => p.stdout.on("end", resolve));
    await new Promise<void>((resolve) =>
      p.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("started\n")) resolve();
      }),
    );
    if (how !== "exit") p.kill(how);
    const exit = await new Promise<NodeJS.Signals | number | null>((resolve) => p.once("exit", (code, signal) => resolve(signal ?? code)));
    // The parent ends as it would have without the children: by the signal, or with its exit code.
    expect(exit).toBe(how === "exit" ? 0 : how);
    // Every holder of the pipe (the parent and its two children) has gone.
    await ended;
    expect(out).toBe("started\n");
  });
});
