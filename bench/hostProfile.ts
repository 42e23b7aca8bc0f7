/**
 * Preloaded (`node --require`) into every node process of a `pulumi` run by `npm run bench --
 * --profile-host DIR`: in the SDK's dynamic-provider host only, records a CPU profile and writes it
 * to `$BENCH_PROFILE_DIR/host-<pid>-<ms>.cpuprofile` when the host ends. `--cpu-prof` cannot do it:
 * pulumi stops the host with SIGINT, and node writes `--cpu-prof` profiles only on a normal exit.
 * Open a profile in Chrome DevTools (Performance) or speedscope; the profile's times include the
 * time the process waited for a CPU, so on a loaded machine read the shares, not the milliseconds.
 */
import * as fs from "node:fs";
import * as inspector from "node:inspector";
import * as path from "node:path";

const dir = process.env.BENCH_PROFILE_DIR;
if (dir && process.argv.some((a) => a.includes("cmd/dynamic-provider"))) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  // 0.5 ms: fine enough for the parse and request paths, coarse enough to cost the host little.
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // An in-process session answers synchronously, so this completes before the process exits.
    session.post("Profiler.stop", (err, res) => {
      if (!err) fs.writeFileSync(path.join(dir, `host-${process.pid}-${Date.now()}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  process.on("exit", write);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      write();
      process.exit(0);
    });
  }
}
