/**
 * The SDK's dynamic-provider host, spawned the way the Pulumi engine spawns it
 * (`node <sdk>/cmd/dynamic-provider <engine-address>` in the program's folder) and driven over gRPC
 * with the SDK's own stubs, for the harness's engine (engine.ts; the bench only, no test): the
 * serialized `__provider`, its `require` from the program's node_modules, configure, and the host's
 * result encoding run as in a real deployment, and the host's own CPU can be reported exactly
 * (HARNESS_HOST_USAGE).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

import type { CheckFailure, Props } from "../report";

export type { CheckFailure, Props };

/** A create or update that failed after the object came to exist: the engine keeps it in state. */
export class InitFailure extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

// The SDK's generated stubs and grpc-js are resolved from the program's @pulumi/pulumi, the same
// copy the engine would run, rather than from whatever this package happens to hoist.
function sdk(programDir: string) {
  const pkgJson = require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] });
  const dir = path.dirname(pkgJson);
  const load = (m: string) => require(require.resolve(m, { paths: [dir] }));
  return {
    dir,
    grpc: load("@grpc/grpc-js"),
    provproto: require(path.join(dir, "proto/provider_pb")),
    provrpc: require(path.join(dir, "proto/provider_grpc_pb")),
    statusproto: require(path.join(dir, "proto/status_pb")),
    structproto: load("google-protobuf/google/protobuf/struct_pb"),
  };
}

type Sdk = ReturnType<typeof sdk>;

export class ProviderHost {
  private constructor(
    private readonly s: Sdk,
    private readonly proc: ChildProcess,
    private readonly client: any,
    readonly port: number,
  ) {}

  /**
   * Starts the host in `cwd` (by default `programDir`, whose node_modules must hold pulumi-gitbook and
   * @pulumi/pulumi), logging its output to `logFile`.
   */
  static async start(programDir: string, project: string, logFile: string, env: NodeJS.ProcessEnv = {}, cwd: string = programDir): Promise<ProviderHost> {
    const s = sdk(programDir);
    const log = fs.createWriteStream(logFile, { flags: "a" });
    const proc = spawn(process.execPath, [path.join(s.dir, "cmd/dynamic-provider/index.js"), "127.0.0.1:0"], {
      cwd,
      env: { ...process.env, ...env, PULUMI_NODEJS_PROJECT: project },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stderr!.pipe(log);
    const port = await new Promise<number>((resolve, reject) => {
      let buf = "";
      const onData = (d: Buffer) => {
        buf += d.toString();
        const nl = buf.indexOf("\n");
        if (nl >= 0) {
          proc.stdout!.off("data", onData);
          proc.stdout!.pipe(log);
          const port = Number(buf.slice(0, nl).trim());
          Number.isInteger(port) && port > 0 ? resolve(port) : reject(new Error(`dynamic-provider host printed ${buf.slice(0, nl)}`));
        }
      };
      proc.stdout!.on("data", onData);
      proc.once("exit", (code) => reject(new Error(`dynamic-provider host exited with ${code} before printing its port`)));
      proc.once("error", reject);
    });
    const client = new s.provrpc.ResourceProviderClient(`127.0.0.1:${port}`, s.grpc.credentials.createInsecure());
    return new ProviderHost(s, proc, client, port);
  }

  async stop(): Promise<void> {
    this.client.close();
    // Opt-in for the benchmark: the host's own CPU time and peak RSS, read by the kernel's accounting
    // just before it is stopped (a child cannot be asked for process.cpuUsage(), and rusage of a
    // grandchild never reaches the bench). Linux only; silently skipped elsewhere.
    const usageFile = process.env.HARNESS_HOST_USAGE;
    if (usageFile && this.proc.pid && this.proc.exitCode === null) {
      try {
        const stat = fs.readFileSync(`/proc/${this.proc.pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const tick = 1000 / 100; // ms per clock tick: USER_HZ is 100 on every Linux ABI
        const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${this.proc.pid}/status`, "utf8"));
        const usage = { cpuUserMs: Number(fields[11]) * tick, cpuSystemMs: Number(fields[12]) * tick, peakRssKb: hwm ? Number(hwm[1]) : undefined };
        fs.appendFileSync(usageFile, JSON.stringify(usage) + "\n");
      } catch {
        // no /proc: the bench reports the figures as unavailable
      }
    }
    if (this.proc.exitCode === null) {
      const exited = new Promise((r) => this.proc.once("exit", r));
      this.proc.kill("SIGTERM");
      await exited;
    }
  }

  private struct(v: Props) {
    return this.s.structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));
  }

  private unary<T>(method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      this.client[method](req, (err: any, resp: T) => {
        if (err) reject(this.toError(err));
        else resolve(resp);
      });
    });
  }

  /** Decodes ErrorResourceInitFailed details the way the engine does, so partial failures keep state. */
  private toError(err: any): Error {
    const bin = err?.metadata?.get?.("grpc-status-details-bin")?.[0];
    const message = String(err?.details ?? err?.message ?? err);
    if (bin) {
      const status = this.s.statusproto.Status.deserializeBinary(new Uint8Array(bin));
      for (const any of status.getDetailsList()) {
        if (any.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
          const d = this.s.provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
          return new InitFailure(message, d.getId(), d.getProperties()?.toJavaScript() ?? {}, d.getReasonsList());
        }
      }
    }
    return new Error(message);
  }

  async configure(config: Record<string, string>): Promise<void> {
    const req = new this.s.provproto.ConfigureRequest();
    req.setArgs(this.struct(config));
    await this.unary("configure", req);
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const req = new this.s.provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    const resp: any = await this.unary("check", req);
    return {
      inputs: resp.getInputs()?.toJavaScript() ?? {},
      failures: resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<{ changes: boolean | undefined; replaces: string[]; deleteBeforeReplace: boolean }> {
    const req = new this.s.provproto.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setOldInputs?.(this.struct(oldInputs));
    const resp: any = await this.unary("diff", req);
    const kinds = this.s.provproto.DiffResponse.DiffChanges;
    const c = resp.getChanges();
    return {
      changes: c === kinds.DIFF_SOME ? true : c === kinds.DIFF_NONE ? false : undefined,
      replaces: resp.getReplacesList(),
      deleteBeforeReplace: resp.getDeletebeforereplace(),
    };
  }

  async create(urn: string, props: Props): Promise<{ id: string; properties: Props }> {
    const req = new this.s.provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(this.struct(props));
    const resp: any = await this.unary("create", req);
    return { id: resp.getId(), properties: resp.getProperties()?.toJavaScript() ?? {} };
  }

  async read(urn: string, id: string, props: Props, inputs: Props): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const req = new this.s.provproto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(this.struct(props));
    req.setInputs(this.struct(inputs));
    const resp: any = await this.unary("read", req);
    const out: { id: string; properties: Props; inputs?: Props } = { id: resp.getId(), properties: resp.getProperties()?.toJavaScript() ?? {} };
    if (resp.getInputs()) out.inputs = resp.getInputs().toJavaScript();
    return out;
  }

  async update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<Props> {
    const req = new this.s.provproto.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    req.setOldInputs?.(this.struct(oldInputs));
    const resp: any = await this.unary("update", req);
    return resp.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, props: Props): Promise<void> {
    const req = new this.s.provproto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(this.struct(props));
    await this.unary("delete", req);
  }
}
