// The processes a test or the demo starts (`pulumi` above all) go when the process that started them
// does. Stopping `npm test` signals vitest's workers, and a `pulumi` a worker started kept running
// without a parent, its plugins with it: Pulumi starts each plugin in a process group of its own, so
// no signal to our group reaches them. Killed here, a `pulumi` takes down what it started (the
// language host watches its parent, tools/pulumi-cli/language-host).
import type { ChildProcess } from "node:child_process";

const running = new Set<ChildProcess>();
let hooked = false;

const killAll = () => {
  for (const child of running) child.kill("SIGKILL");
};

/** Kills `child`, if it still runs, when this process exits or is stopped by SIGINT or SIGTERM. */
export function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (hooked) return;
  hooked = true;
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const stop = () => {
      killAll();
      // A listener replaces Node's default of exiting: unless someone else handles the signal (a
      // test runner's own teardown), exit as the default would have.
      process.off(signal, stop);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, stop);
  }
}
