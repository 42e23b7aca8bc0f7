/**
 * Which part of a process tree spends the CPU and memory, read from /proc while the tree runs
 * (Linux only).
 *
 * The kernel's own accounting gives only a sum: a process's CPU is added to its parent's "children"
 * total when the parent reaps it, so after `pulumi` exits, this process's children total holds the
 * engine, the language host, the program and the provider host together (pulumi stops a plugin with
 * SIGINT to its process group, and the `pulumi-resource-pulumi-nodejs` shell script waits for its
 * `node` before exiting, so the host is reaped up the chain too). To split that sum by process, and
 * to see memory at all, the tree is sampled while it lives. A sample cannot see what a process
 * spends after the last sample (at most one interval) nor processes that start and end between two
 * samples; the benchmark takes totals from the kernel and only the split from samples.
 */
import * as fs from "node:fs";

export interface ProcessUsage {
  pid: number;
  role: string;
  /** user + system CPU at the last sample, ms. */
  cpuMs: number;
  /** VmHWM at the last sample: the process's peak resident set, kB. */
  peakRssKb: number;
}

export interface TreeUsage {
  processes: ProcessUsage[];
  /** Per role: CPU summed and the largest peak RSS of its processes. */
  byRole: Record<string, { cpuMs: number; peakRssKb: number; count: number }>;
  /** The largest sum of VmRSS over the tree's live processes in one sample: memory the tree held at once. */
  peakTreeRssKb: number;
  samples: number;
}

const TICK_MS = 10; // USER_HZ is 100 on every Linux ABI

interface Stat {
  ppid: number;
  cpuMs: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

function readMemKb(pid: number): { hwm: number; rss: number } | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return { hwm: Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0), rss: Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) };
  } catch {
    return undefined;
  }
}

function readArgv(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Samples the tree under `rootPid` every `intervalMs` until `stop()`. `classify` names a process's
 * role from its argv (called again on every sample, since a forked child shows its parent's
 * command line until it execs).
 */
export function sampleTree(rootPid: number, classify: (argv: string[], isRoot: boolean) => string, intervalMs = 100): { stop(): TreeUsage } {
  const ours = new Map<number, ProcessUsage>([[rootPid, { pid: rootPid, role: classify(readArgv(rootPid), true), cpuMs: 0, peakRssKb: 0 }]]);
  // Processes seen not to be in the tree: their stat is not read again (PIDs are not reused within a phase
  // on a machine this size, and if one were, the cost is one missed process, not a wrong figure).
  const foreign = new Set<number>();
  let peakTreeRssKb = 0;
  let samples = 0;

  const sample = () => {
    samples++;
    const fresh = new Map<number, Stat>();
    for (const name of fs.readdirSync("/proc")) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || ours.has(pid) || foreign.has(pid)) continue;
      const st = readStat(pid);
      if (st) fresh.set(pid, st);
    }
    // A new process joins the tree when its parent is in it, possibly through another new one.
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, st] of fresh) {
        if (!ours.has(st.ppid)) continue;
        ours.set(pid, { pid, role: "", cpuMs: 0, peakRssKb: 0 });
        fresh.delete(pid);
        grew = true;
      }
    }
    for (const pid of fresh.keys()) foreign.add(pid);
    let treeRss = 0;
    for (const p of ours.values()) {
      const st = readStat(p.pid);
      const mem = readMemKb(p.pid);
      if (!st || !mem) continue; // gone: keep what the last sample saw
      p.cpuMs = st.cpuMs;
      p.peakRssKb = Math.max(p.peakRssKb, mem.hwm);
      // An exiting process's command line reads empty: keep the role it had.
      const argv = readArgv(p.pid);
      if (argv.length) p.role = classify(argv, p.pid === rootPid);
      treeRss += mem.rss;
    }
    peakTreeRssKb = Math.max(peakTreeRssKb, treeRss);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const byRole: TreeUsage["byRole"] = {};
      for (const p of ours.values()) {
        const r = (byRole[p.role || "other"] ??= { cpuMs: 0, peakRssKb: 0, count: 0 });
        r.cpuMs += p.cpuMs;
        r.peakRssKb = Math.max(r.peakRssKb, p.peakRssKb);
        r.count++;
      }
      return { processes: [...ours.values()], byRole, peakTreeRssKb, samples };
    },
  };
}

/**
 * CPU of this process's reaped children (and of theirs, as far as each parent reaped them), from
 * /proc/self/stat. Null where there is no /proc.
 */
export function childrenCpuMs(): number | null {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS; // cutime + cstime
  } catch {
    return null;
  }
}
