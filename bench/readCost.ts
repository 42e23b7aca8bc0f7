/**
 * `node dist/bench/readCost.js [--sections 1000] [--runs 5] [--profile DIR] [--null-inputs] [--show]`: the provider host's CPU for a refresh of
 * the bench's topology (bench/README.md, "What a refresh costs the host"), in one process, without
 * an engine: every resource's Read as the SDK's dynamic-provider host serves it (the request's
 * properties decoded from protobuf, the provider's read, the answer's properties and inputs encoded),
 * against an emulator in this process with no latency, all reads at once as the engine sends them.
 * Each run is a fresh provider (configure, new client: nothing cached from the run before), and the
 * same reads on the null provider's read (it returns the properties it was given) run beside it. Prints
 * the smallest CPU of the runs for each, so a change can be compared before and after on a loaded
 * machine. The emulator's CPU for the run's five listings is counted in ours (the same before and after).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Emulator as EmulatorType } from "../emulator";
import type { GitbookClient as ClientType } from "../provider/client";
import type { createProvider as CreateProvider } from "../provider/impl";
import { NAME_KEY } from "../provider/framework/resource";
import { DECLARED_KEY } from "../provider/framework/state";
import { serializedShim } from "../provider/shim";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const structproto = require("google-protobuf/google/protobuf/struct_pb") as { Struct: { fromJavaScript(v: object): { toJavaScript(): Record<string, unknown> } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const provproto = require("@pulumi/pulumi/proto/provider_pb") as Record<string, any>;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

type Props = Record<string, unknown>;
interface Res {
  kind: string;
  id: string;
  props: Props;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The host's Read (cmd/dynamic-provider, `read`): decode the request, call the provider, encode its answer. */
async function hostRead(request: Uint8Array, read: (id: string, props: Props) => Promise<{ id?: string; props?: Props; inputs?: Props }>): Promise<Uint8Array> {
  const req = provproto.ReadRequest.deserializeBinary(request);
  const props = req.getProperties().toJavaScript() as Props;
  const result = await read(req.getId(), props);
  const resp = new provproto.ReadResponse();
  resp.setId(result.id);
  resp.setProperties(structproto.Struct.fromJavaScript({ ...result.props, __provider: props.__provider }));
  if (result.inputs) resp.setInputs(structproto.Struct.fromJavaScript({ ...result.inputs, __provider: props.__provider }));
  return resp.serializeBinary() as Uint8Array;
}

function readRequest(r: Res, provider: string): Uint8Array {
  const req = new provproto.ReadRequest();
  req.setId(r.id);
  req.setProperties(structproto.Struct.fromJavaScript({ ...r.props, __provider: provider }));
  return req.serializeBinary() as Uint8Array;
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf("--child");
  if (childAt >= 0) return child(process.argv[childAt + 1]!, process.argv[process.argv.indexOf("--which") + 1]!);
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Emulator } = require("../emulator") as { Emulator: typeof EmulatorType };
  const { GitbookClient } = require("../provider/client") as { GitbookClient: typeof ClientType };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sections = flag("sections", 1000);
  const runs = flag("runs", 5);
  const emu = await Emulator.start({ seed: 7, contract: false });
  const org = emu.seeded.organizationId;
  const config: Record<string, string> = { "gitbook:token": emu.token, "gitbook:apiUrl": emu.url, "gitbook:organizationId": org };
  const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
  for (let i = 0; i < sections; i++)
    for (let j = 0; j <= 1; j++) {
      const base = emu.store.newId("spc");
      const id = `spc_bench_${i}-${j}`;
      emu.store.spaces.set(id, { ...base, id, orgId: org, title: `Product ${i} v${j + 1}`, emoji: "📘", visibility: "in-collection", updatedAt: base.createdAt, revision: `rev_${i}_${j}` });
    }
  // The bench program's objects, made straight through the API; their recorded outputs come from one read each.
  const o = `/orgs/${org}`;
  const site = await client.post<{ id: string }>(`${o}/sites`, { body: { title: "Bench Docs", visibility: "share-link" } });
  const s = `${o}/sites/${site.id}`;
  const res: Res[] = [{ kind: "Site", id: site.id, props: { organizationId: org, title: "Bench Docs", visibility: "share-link", [DECLARED_KEY]: ["title", "visibility"] } }];
  for (let i = 0; i < sections; i++) {
    const sec = await client.post<{ id: string; siteSpaces?: { id: string }[] }>(`${s}/sections`, { body: { spaceId: `spc_bench_${i}-0`, title: `Section ${i}` } });
    res.push({ kind: "SiteSection", id: sec.id, props: { organizationId: org, siteId: site.id, spaceId: `spc_bench_${i}-0`, title: `Section ${i}`, siteSpaceId: sec.siteSpaces?.[0]?.id, [NAME_KEY]: `section-${i}` } });
    const ss = await client.post<{ id: string }>(`${s}/site-spaces`, { body: { spaceId: `spc_bench_${i}-1`, sectionId: sec.id } });
    await client.patch(`${s}/site-spaces/${ss.id}`, { body: { path: "v2" } });
    res.push({ kind: "SiteSpace", id: ss.id, props: { organizationId: org, siteId: site.id, sectionId: sec.id, spaceId: `spc_bench_${i}-1`, path: "v2", [NAME_KEY]: `section-${i}-space-1` } });
  }
  for (let k = 0; k < 3; k++) {
    const link = await client.post<{ id: string }>(`${s}/share-links`, { body: { name: `Reviewers ${k}` } });
    res.push({ kind: "ShareLink", id: link.id, props: { organizationId: org, siteId: site.id, name: `Reviewers ${k}`, active: true, [NAME_KEY]: `link-${k}` } });
  }
  await client.close();

  // One read each gives the outputs state records after a refresh.
  const first = await configured(config);
  for (const r of res) r.props = ((await first(1, r.kind, "read", [r.id, r.props])) as { props: Props }).props;
  const provider = serializedShim("SiteSection");
  if (process.argv.includes("--show")) {
    for (const kind of ["Site", "SiteSection", "SiteSpace", "ShareLink"]) {
      const r = res.find((x) => x.kind === kind)!;
      console.log(kind, JSON.stringify(await first(1, r.kind, "read", [r.id, r.props])));
    }
    console.log("__provider", provider.length);
  }
  const file = path.join(os.tmpdir(), `gitbook-readcost-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify({ config, requests: res.map((r) => ({ kind: r.kind, bytes: Buffer.from(readRequest(r, provider)).toString("base64") })) }));
  const times = { ours: [] as number[], null: [] as number[] };
  let answerBytes = 0;
  const loads: number[] = [];
  try {
    for (let run = 0; run < runs; run++)
      for (const which of ["ours", "null"] as const) {
        const out = await new Promise<string>((resolve, reject) =>
          execFile(process.execPath, [__filename, "--child", file, "--which", which, ...profile(which), ...(process.argv.includes("--null-inputs") ? ["--null-inputs"] : [])], { maxBuffer: 1 << 20 }, (e, stdout) => (e ? reject(e) : resolve(stdout))),
        );
        const child = JSON.parse(out) as { cpuMs: number; loadMs: number; answerBytes: number };
        times[which].push(child.cpuMs);
        if (which === "ours") loads.push(child.loadMs);
        if (which === "ours") answerBytes = child.answerBytes;
      }
  } finally {
    fs.rmSync(file, { force: true });
    await emu.close();
  }
  const requestBytes = res.reduce((n, r) => n + readRequest(r, provider).length, 0);
  const min = (xs: number[]) => Math.min(...xs);
  console.log(
    `${res.length} reads, ${runs} cold processes each: ours ${min(times.ours).toFixed(0)} ms CPU (runs ${times.ours.map((t) => t.toFixed(0)).join(", ")}; loading the package and configure ${loads.map((t) => t.toFixed(0)).join(", ")}), ` +
      `null provider ${min(times.null).toFixed(0)} ms (${times.null.map((t) => t.toFixed(0)).join(", ")}); ` +
      `requests ${(requestBytes / 1024).toFixed(0)} KiB, our answers ${(answerBytes / 1024).toFixed(0)} KiB`,
  );
}

/** With `--profile DIR`, each process of ours writes a CPU profile of its reads there, after loading and configure (read it with profileTop.js). */
function profile(which: string): string[] {
  const i = process.argv.indexOf("--profile");
  return i >= 0 && which === "ours" ? ["--profile", path.resolve(process.argv[i + 1]!)] : [];
}

/** Starts the inspector's CPU profiler when asked to (see profile); the function it answers stops it and writes the profile. */
async function profiler(): Promise<() => Promise<void>> {
  const i = process.argv.indexOf("--profile");
  if (i < 0) return async () => {};
  const dir = process.argv[i + 1]!;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const inspector = require("node:inspector") as typeof import("node:inspector");
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
  await post("Profiler.enable");
  await post("Profiler.start");
  return async () => {
    const { profile: p } = await post("Profiler.stop");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `readcost-${process.pid}.cpuprofile`), JSON.stringify(p));
  };
}

async function configured(config: Record<string, string>) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createProvider } = require("../provider/impl") as { createProvider: typeof CreateProvider };
  const { dispatch } = createProvider();
  await dispatch(1, "Site", "configure", [{ config: { get: (k: string) => config[k] } }]);
  return dispatch;
}

/**
 * One cold refresh, as a fresh host process serves it: the SDK is loaded first (the host has it before
 * any call, ours or the null provider's), then the clock starts; ours loads the package, configures,
 * and serves every read; the null provider serves them by echoing the properties.
 */
async function child(file: string, which: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require("@pulumi/pulumi");
  const { config, requests } = JSON.parse(fs.readFileSync(file, "utf8")) as { config: Record<string, string>; requests: { kind: string; bytes: string }[] };
  const bytes = requests.map((r) => ({ kind: r.kind, bytes: Buffer.from(r.bytes, "base64") }));
  const t0 = cpu();
  let stop = async () => {};
  let answers: Uint8Array[];
  let loadMs = 0;
  if (which === "ours") {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createProvider: make } = require("../provider/impl") as typeof import("../provider/impl");
    const { dispatch } = make();
    await dispatch(1, "Site", "configure", [{ config: { get: (k: string) => config[k] } }]);
    loadMs = cpu() - t0;
    stop = await profiler();
    answers = await Promise.all(bytes.map((r) => hostRead(r.bytes, (id, props) => dispatch(1, r.kind, "read", [id, props]) as never)));
  } else {
    // With --null-inputs it also returns the properties as inputs, as ours does (the host adds `__provider` to both).
    const inputs = process.argv.includes("--null-inputs");
    answers = await Promise.all(bytes.map((r) => hostRead(r.bytes, async (id, props) => (inputs ? { id, props, inputs: { ...props } } : { id, props }))));
  }
  const cpuMs = cpu() - t0;
  await stop();
  process.stdout.write(JSON.stringify({ cpuMs, loadMs, answerBytes: answers.reduce((n, a) => n + a.length, 0) }));
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
