/**
 * `node dist/bench/emulatorCost.js [--sections 1000] [--every 7]`: the emulator's own CPU for the
 * requests a 1000-section converge and destroy send (bench/README.md, "The emulator's cost"),
 * without HTTP, latency or any engine: each request goes straight to the emulator's router and its
 * answer is serialized as `send` would. A listing of the site's sections (limit 1000) is made once
 * every `--every` sections created and deleted, about as often as the shared safety listings went out
 * in the CLI bench (146 GETs in a converge, 161 in a destroy). Prints CPU milliseconds per phase, so
 * a change to the emulator can be compared before and after on a loaded machine.
 */
import { Emulator } from "../emulator";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const sections = flag("sections", 1000);
  const every = flag("every", 7);
  const emu = await Emulator.start({ seed: 7, contract: false });
  const org = emu.seeded.organizationId;
  for (let i = 0; i < sections; i++)
    for (let j = 0; j <= 1; j++) {
      const base = emu.store.newId("spc");
      const id = `spc_bench_${i}-${j}`;
      emu.store.spaces.set(id, { ...base, id, orgId: org, title: `Product ${i} v${j + 1}`, emoji: "📘", visibility: "in-collection", updatedAt: base.createdAt, revision: `rev_${i}_${j}` });
    }
  // The emulator's router and the body it would send, without the socket.
  const router = (emu as unknown as { router: { match(m: string, p: string): { params: Record<string, string>; handler(c: unknown): { status: number; body?: unknown } } | undefined } }).router;
  let bytes = 0;
  const call = (method: string, path: string, body?: unknown): { id: string } => {
    const url = new URL(path, "http://x");
    const m = router.match(method, url.pathname);
    if (!m) throw new Error(`no route ${method} ${path}`);
    const reply = m.handler({ params: m.params, query: url.searchParams, body: body ?? {}, store: emu.store, baseUrl: emu.url });
    if (reply.status >= 400) throw new Error(`${method} ${path}: ${JSON.stringify(reply.body)}`);
    const text = reply.body === undefined ? "" : JSON.stringify(reply.body);
    bytes += text.length;
    return reply.body as { id: string };
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const o = `/v1/orgs/${org}`;
  let t0 = cpu();
  const site = call("POST", `${o}/sites`, { title: "Bench Docs", visibility: "share-link" });
  const s = `${o}/sites/${site.id}`;
  const made: { section: string; siteSpace: string }[] = [];
  for (let i = 0; i < sections; i++) {
    if (i % every === 0) call("GET", `${s}/sections?limit=1000`);
    const sec = call("POST", `${s}/sections`, { spaceId: `spc_bench_${i}-0`, title: `Section ${i}` });
    const ss = call("POST", `${s}/site-spaces`, { spaceId: `spc_bench_${i}-1`, sectionId: sec.id });
    call("PATCH", `${s}/site-spaces/${ss.id}`, { path: "v2" });
    made.push({ section: sec.id, siteSpace: ss.id });
  }
  const converge = cpu() - t0;
  const convergeBytes = bytes;
  t0 = cpu();
  for (const m of made) call("DELETE", `${s}/site-spaces/${m.siteSpace}`);
  made.forEach((m, i) => {
    if (i % every === 0) call("GET", `${s}/sections?limit=1000`);
    call("DELETE", `${s}/sections/${m.section}`);
  });
  call("DELETE", s);
  const destroy = cpu() - t0;
  console.log(`${sections} sections, a listing every ${every}: converge ${converge.toFixed(0)} ms CPU (${(convergeBytes / 1e6).toFixed(1)} MB answered), destroy ${destroy.toFixed(0)} ms CPU`);
  await emu.close();
}

void main();
