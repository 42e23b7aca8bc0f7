/**
 * `node dist/bench/profileTop.js FILE.cpuprofile...`: the frames with the most self time in each CPU
 * profile (from `npm run bench -- --profile-host DIR`), and self time summed per package or file, so
 * that where the provider host's time goes can be read without a profiler UI. Times are the
 * profile's, which count the time the process waited for a CPU: read the shares.
 */
import * as fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/zod/v4/core/schemas.cjs -> zod; this package's files by their path from the root. */
function where(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const dist = url.indexOf("/dist/");
  return dist >= 0 ? url.slice(dist + 1) : url || "(no file: native, GC, evaluated code)";
}

function top(file: string, n: number): void {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const frames = new Map<string, number>();
  const places = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    busy += ms;
    const frame = `${functionName || "(anonymous)"} ${where(url)}${url ? `:${lineNumber + 1}` : ""}`;
    frames.set(frame, (frames.get(frame) ?? 0) + ms);
    places.set(where(url), (places.get(where(url)) ?? 0) + ms);
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${k}`)
      .join("\n");
  console.log(`${file}: ${busy.toFixed(0)} ms busy\nself time by frame:\n${rows(frames)}\nself time by package or file:\n${rows(places)}\n`);
}

for (const file of process.argv.slice(2)) top(file, 25);
