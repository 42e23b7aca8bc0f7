import * as fs from "node:fs";
import * as http from "node:http";

/** The lowest port the kernel hands out for `listen(0)` and outgoing connections (Linux), else IANA's. */
function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 1024) return low;
  } catch {
    // not Linux: fall through
  }
  return 49152;
}

/**
 * The URL of a port that refuses connections. The port is taken below the kernel's ephemeral range,
 * checked free by binding it and closing it again: servers in concurrent suites all listen on port 0,
 * which never hands out a port from there, so nothing can start answering on it while the test runs (a
 * port that was merely ephemeral and closed could be handed to another suite's server a moment later).
 */
export async function closedPort(): Promise<string> {
  const low = ephemeralLow();
  const span = low - 10_000;
  for (let tries = 0; tries < 50; tries++) {
    const port = 10_000 + Math.floor(Math.random() * span);
    const server = http.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((r) => server.close(r));
    return `http://127.0.0.1:${port}`;
  }
  throw new Error("no free port below the ephemeral range");
}
