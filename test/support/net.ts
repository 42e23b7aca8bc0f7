import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** The URL of a port that refuses connections: a server is bound, its port noted, and it is closed again. */
export async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}
