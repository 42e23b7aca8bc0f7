/**
 * What the CLI writes to state: no token, no absolute path, a small shim, secrets encrypted, and
 * an OpenAPI document only where the program put it (a text source's inputs), never from a file.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, filesUnder, PROGRAM, ROOT, startDeployment, steps, type Deployment } from "../support/lifecycle";
import { ref, site } from "../support/scenarios";

describeDeployments("state written by the engine", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
    const r = await d.run("up", [site(), { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Reviewers" } }]);
    expect(r.error).toBeUndefined();
  });
  afterAll(async () => d?.close());

  it("holds neither the token nor an absolute path, and __provider is a small stable shim", () => {
    const raw = fs.readFileSync(d.statePath, "utf8") as string;
    expect(raw).not.toContain(d.emu.token);
    const provider = d.resource("site").inputs.__provider as string;
    expect(provider).toContain('require("pulumi-gitbook/impl")');
    expect(provider).not.toMatch(/\/(work|home|tmp|usr)\//);
    expect(provider.length).toBeLessThan(4096);
    // The same shim text for every resource of a kind: nothing instance-specific is captured.
    console.log(`serialized __provider: ${provider.length} bytes`);
  });

  it("records as each resource's source position the program's line that constructed it", (ctx) => {
    // Pulumi keeps it in the checkpoint and shows it to users. The harness, no engine of Pulumi's, keeps none.
    const cli = d.cli();
    if (!cli) return ctx.skip();
    const line = fs.readFileSync(path.join(PROGRAM, "index.js"), "utf8").split("\n").findIndex((l) => l.includes("new gitbook[d.kind]")) + 1;
    expect(line).toBeGreaterThan(0);
    const resources = (cli.exported().deployment.resources ?? []) as Array<{ urn: string; sourcePosition?: string }>;
    for (const name of ["site", "link"]) {
      // Before: project:///../../../provider/framework/define.ts#… (the class, through its source map).
      expect(resources.find((r) => r.urn.endsWith(`::${name}`))?.sourcePosition, name).toMatch(new RegExp(`^project:///index\\.js#${line},\\d+$`));
    }
  });

  it("never prints the token: not in the host's output, the plan, or the report", () => {
        expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(d.emu.token);
    for (const [file, text] of filesUnder(d.dir)) expect(text, file).not.toContain(d.emu.token);
  });

  it("stores the share link URL as a secret, never in plain text", () => {
    const link = d.resource("link");
    const liveKey = [...d.emu.store.shareLinks.values()][0]!.key;
    expect(JSON.stringify(d.state())).not.toContain(liveKey);
    expect(link.outputs.url).toMatchObject({ ciphertext: expect.stringMatching(/^v1:/) });
  });
});

describeDeployments("provider code in state", () => {
  let d: Deployment;
  let pkg: string;
  let program: string;
  beforeAll(async () => {
    d = await startDeployment();
    // A private copy of the built package, so the test can change its implementation.
    pkg = path.join(d.dir, "pkg");
    fs.mkdirSync(path.join(pkg, "dist"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(pkg, "package.json"));
    fs.cpSync(path.join(ROOT, "dist/provider"), path.join(pkg, "dist/provider"), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(pkg, "node_modules"), "dir");
    program = path.join(d.dir, "program");
    fs.cpSync(PROGRAM, program, { recursive: true, filter: (src) => !/node_modules/.test(src) });
    fs.mkdirSync(path.join(program, "node_modules"));
    fs.symlinkSync(path.join(ROOT, "node_modules/@pulumi"), path.join(program, "node_modules/@pulumi"), "dir");
  });
  afterAll(async () => d?.close());

  it("refreshes and destroys resources already in state with the package's current implementation", async () => {
    const r = await d.run("up", [site()], { programDir: program, packageRoot: pkg });
    expect(r.error).toBeUndefined();
    const shim = d.resource("site").outputs.__provider;
    // Upgrade the package in place: every read now stamps its outputs.
    fs.appendFileSync(
      path.join(pkg, "dist/provider/impl.js"),
      `\nconst v1 = exports.dispatch;\nexports.dispatch = async (...a) => { const r = await v1(...a); if (a[2] === "read" && r && r.props) r.props.implementation = "v2"; return r; };\n`,
    );
    const refreshed = await d.run("refresh", undefined, { programDir: program, packageRoot: pkg });
    expect(refreshed.error).toBeUndefined();
    expect(d.resource("site").outputs.__provider).toBe(shim);
    expect(d.resource("site").outputs.implementation).toBe("v2");
    // And destroys with it: the stored shim loads whatever the package now is.
    const destroyed = await d.run("destroy", undefined, { programDir: program, packageRoot: pkg });
    expect(destroyed.error).toBeUndefined();
    expect(d.state().resources.filter((r) => r.custom)).toEqual([]);
    expect(d.emu.store.sites.size).toBe(0);
  });
});

describeDeployments("an OpenAPI document in state", () => {
  let d: Deployment;
  let file: string;
  const doc = (v: string) => `openapi: 3.1.0\ninfo:\n  title: State Test API ${v}\n  version: 1.0.0\npaths: {}\n`;
  const spec = (source: Record<string, unknown>) => [{ kind: "OpenApiSpec", name: "spec", args: { slug: "state-api", source } }];
  beforeAll(async () => {
    d = await startDeployment();
    file = path.join(d.dir, "openapi.yaml");
    fs.writeFileSync(file, doc("v1"));
  });
  afterAll(async () => d?.close());

  it("from a file: state holds the path and the hash, never the text; the path is relative to the program's folder", async () => {
    // The program runs, and the provider host starts, in the folder of the project's main.
    const relative = path.relative(PROGRAM, file);
    const r = await d.run("up", spec({ file: relative }));
    expect(r.error).toBeUndefined();
    const sha = crypto.createHash("sha256").update(doc("v1")).digest("hex");
    expect(d.resource("spec").inputs.source).toEqual({ file: relative, sha256: sha });
    expect(d.resource("spec").outputs.source).toEqual({ file: relative, sha256: sha });
    expect(fs.readFileSync(d.statePath, "utf8")).not.toContain("State Test API");
    expect([...d.emu.store.openApiSpecs.values()].map((s) => s.source)).toEqual([{ text: doc("v1") }]);

    // An edited file is a change in preview, sent by the next up.
    fs.writeFileSync(file, doc("v2"));
    const preview = await d.run("preview", spec({ file: relative }));
    expect(steps(preview)).toEqual(["update spec"]);
    expect((await d.run("up", spec({ file: relative }))).error).toBeUndefined();
    expect([...d.emu.store.openApiSpecs.values()].map((s) => s.source)).toEqual([{ text: doc("v2") }]);
    expect(steps(await d.run("preview", spec({ file: relative })))).toEqual(["same spec"]);
  });

  it("from a file that cannot be read: preview fails naming source.file, without a request", async () => {
    d.emu.log.reset();
    const r = await d.run("preview", spec({ file: "missing/openapi.yaml" }));
    expect(r.checkFailures).toEqual([
      expect.objectContaining({ property: "source.file", reason: expect.stringMatching(/^source\.file cannot read "missing\/openapi\.yaml" \(looked for as \S+\/test\/lifecycle\/program\/missing\/openapi\.yaml\): no such file$/) }),
    ]);
    expect(d.emu.log.count()).toBe(0);
  });

  it("as text: the whole text is in the resource's inputs in state (as the reference says), only its hash in the outputs", async () => {
    const r = await d.run("up", spec({ text: doc("as text") }));
    expect(r.error).toBeUndefined();
    expect(d.resource("spec").inputs.source).toEqual({ text: doc("as text") });
    expect(JSON.stringify(d.resource("spec").outputs)).not.toContain("State Test API");
  });
});
