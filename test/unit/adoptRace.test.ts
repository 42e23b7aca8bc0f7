/**
 * Two resources of one run over one object, seen in an order the engine makes only under load: the
 * adopting create's read of the object is still out when the other resource's diff claims it. The
 * create must be refused all the same (found in a full CLI run: both resources kept the object).
 * The read is held by a gate in the client's transport (not by time) until the diff has run.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { Agent, type Dispatcher } from "undici";
import { NAME_KEY } from "../../provider/framework/resource";
import { startProviderEnv, type ProviderEnv, type State } from "../support/provider";

let env: ProviderEnv;
let gate: { path: string; arrived: () => void; open: Promise<void> } | undefined;

beforeAll(async () => {
  const dispatcher = new Agent().compose((dispatch) => (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    const g = gate;
    if (g && opts.method === "GET" && String(opts.path).endsWith(g.path)) {
      g.arrived();
      void g.open.then(() => dispatch(opts, handler));
      return true;
    }
    return dispatch(opts, handler);
  });
  env = await startProviderEnv({ client: { dispatcher } });
});
afterAll(async () => env.close());

it("refuses an adopting create whose read was out while another resource of the run claimed the object", async () => {
  const held: State = (await env.up("Space", { title: "Handbook", [NAME_KEY]: "subject" })).state;
  // The next run: a new provider process, which knows nothing of the last one's objects.
  env.outOfBand();
  let arrived!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((r) => (arrived = r));
  gate = { path: `/spaces/${held.id}`, arrived, open: new Promise<void>((r) => (open = r)) };
  const checked = await env.check("Space", { title: "Handbook", adoptId: held.id, [NAME_KEY]: "twin" });
  const adopting = env.call("Space", "create", { ...checked.inputs, __provider: "p" }).then(
    () => "adopted",
    (e: Error) => e.message,
  );
  await reached;
  gate = undefined;
  // The resource in state, diffed by the engine meanwhile: it claims the object first.
  await env.diff("Space", held, { ...held.outs, [NAME_KEY]: "subject" });
  open();
  expect(await adopting).toMatch(new RegExp(`^Space twin: adoptId: "${held.id}" names the object Space subject of this stack manages`));
});
