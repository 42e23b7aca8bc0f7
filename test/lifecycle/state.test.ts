/**
 * What the CLI writes to state: no token, no absolute path, a small shim, secrets encrypted, and
 * an OpenAPI document only where the program put it (a text source's inputs), never from a file;
 * and the shim in state loads whatever the package now is, so that an upgrade's refresh and destroy
 * run the new implementation.
 *
 * One stack for all of it (issue 23: engine runs are the suite's cost): the program runs from a
 * private copy of the built package, so that the last runs can upgrade it in place.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, filesUnder, PROGRAM, ROOT, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { legacyShim } from "../support/legacyShim";
import { ref, site } from "../support/scenarios";

describeDeployments("state written by the engine", () => {
  let d: Deployment;
  let pkg: string;
  let program: string;
  let file: string;
  let relative: string;
  const doc = (v: string) => `openapi: 3.1.0\ninfo:\n  title: State Test API ${v}\n  version: 1.0.0\npaths: {}\n`;
  const spec = (source: Record<string, unknown>, name = "spec", slug = "state-api"): Decl => ({ kind: "OpenApiSpec", name, args: { slug, source } });
  const decls = (source: Record<string, unknown>, more: Decl[] = []): Decl[] => [
    site(),
    { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Reviewers" } },
    spec(source),
    ...more,
  ];
  const asText = spec({ text: doc("as text") }, "spec-text", "state-api-text");
  const run = (op: "preview" | "up" | "refresh" | "destroy", resources?: Decl[], flags?: string[]) => d.run(op, resources, { programDir: program, packageRoot: pkg, flags });

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
    file = path.join(d.dir, "openapi.yaml");
    fs.writeFileSync(file, doc("v1"));
    // The program runs, and the provider host starts, in the folder of the project's main.
    relative = path.relative(program, file);
    const r = await run("up", decls({ file: relative }));
    expect(r.error).toBeUndefined();
  });
  afterAll(async () => d?.close());

  it("holds neither the token nor an absolute path, and __provider is a small stable shim", () => {
    const raw = fs.readFileSync(d.statePath, "utf8") as string;
    expect(raw).not.toContain(d.emu.token);
    const provider = d.resource("site").inputs.__provider as string;
    expect(provider).toContain('require("pulumi-gitbook/impl")');
    expect(provider).not.toMatch(/\/(work|home|tmp|usr)\//);
    expect(provider.length).toBeLessThan(512);
    // The same shim text for every resource of a kind: nothing instance-specific is captured.
    console.log(`serialized __provider: ${provider.length} bytes`);
  });

  it("records as each resource's source position the program's line that constructed it", (ctx) => {
    // Pulumi keeps it in the checkpoint and shows it to users. The harness, no engine of Pulumi's, keeps none.
    const cli = d.cli();
    if (!cli) return ctx.skip();
    const line = fs.readFileSync(path.join(program, "index.js"), "utf8").split("\n").findIndex((l) => l.includes("new gitbook[d.kind]")) + 1;
    expect(line).toBeGreaterThan(0);
    const resources = (cli.exported().deployment.resources ?? []) as Array<{ urn: string; sourcePosition?: string }>;
    for (const name of ["site", "link"]) {
      // Before: project:///../../../provider/framework/define.ts#… (the class, through its source map).
      expect(resources.find((r) => r.urn.endsWith(`::${name}`))?.sourcePosition, name).toMatch(new RegExp(`^project:///index\\.js#${line},\\d+$`));
    }
  });

  it("stores the share link URL as a secret, never in plain text", () => {
    const link = d.resource("link");
    const liveKey = [...d.emu.store.shareLinks.values()][0]!.key;
    expect(JSON.stringify(d.state())).not.toContain(liveKey);
    expect(link.outputs.url).toMatchObject({ ciphertext: expect.stringMatching(/^v1:/) });
  });

  it("an OpenAPI document from a file: state holds the path and the hash, never the text; the path is relative to the program's folder", () => {
    const sha = crypto.createHash("sha256").update(doc("v1")).digest("hex");
    expect(d.resource("spec").inputs.source).toEqual({ file: relative, sha256: sha });
    expect(d.resource("spec").outputs.source).toEqual({ file: relative, sha256: sha });
    expect(fs.readFileSync(d.statePath, "utf8")).not.toContain("State Test API");
    expect([...d.emu.store.openApiSpecs.values()].map((s) => s.source)).toEqual([{ text: doc("v1") }]);
  });

  it("from a file that cannot be read: preview fails naming source.file, without a request", async () => {
    d.emu.log.reset();
    const r = await run("preview", decls({ file: "missing/openapi.yaml" }));
    const lookedFor = path.join(program, "missing/openapi.yaml").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    expect(r.checkFailures).toEqual([
      expect.objectContaining({ property: "source.file", reason: expect.stringMatching(new RegExp(`^source\\.file cannot read "missing/openapi\\.yaml" \\(looked for as ${lookedFor}\\): no such file$`)) }),
    ]);
    expect(d.emu.log.count()).toBe(0);
  });

  it("an edited file is a change, sent by the next up; a text source: the whole text in the inputs in state (as the reference says), only its hash in the outputs", async () => {
    fs.writeFileSync(file, doc("v2"));
    const r = await run("up", decls({ file: relative }, [asText]));
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((s) => !s.startsWith("same ")).sort()).toEqual(["create spec-text", "update spec"]);
    expect([...d.emu.store.openApiSpecs.values()].find((s) => s.slug === "state-api")!.source).toEqual({ text: doc("v2") });
    expect(d.resource("spec-text").inputs.source).toEqual({ text: doc("as text") });
    expect(JSON.stringify(d.resource("spec-text").outputs)).not.toContain("State Test API");
  });

  it("refreshes and destroys resources already in state with the package's current implementation, from the shim an earlier version wrote too, with no change; the edited file's spec converged", async () => {
    // State as version 0.1.0 wrote it: every __provider the SDK's serialization of the shim (2.7 kB).
    await d.editState((resources) => {
      for (const r of resources as Array<(typeof resources)[number] & { type: string }>) {
        if (!r.type.startsWith("pulumi-nodejs:dynamic/gitbook:")) continue;
        r.inputs.__provider = r.outputs.__provider = legacyShim(r.type.split(":").pop()!);
      }
    });
    const shim = d.resource("site").outputs.__provider;
    expect(shim).toBe(legacyShim("Site"));
    // Upgrade the package in place: every read now stamps its outputs.
    fs.appendFileSync(
      path.join(pkg, "dist/provider/impl.js"),
      `\nconst v1 = exports.dispatch;\nexports.dispatch = async (...a) => { const r = await v1(...a); if (a[2] === "read" && r && r.props) r.props.implementation = "v2"; return r; };\n`,
    );
    // One run refreshes (with the new implementation) and then updates: nothing to do, the edited
    // file's spec among them.
    d.emu.log.reset();
    const refreshed = await run("up", decls({ file: relative }, [asText]), ["--refresh"]);
    expect(refreshed.error).toBeUndefined();
    // The program's shim differs from the stored one: no change for it, and nothing written.
    expect(steps(refreshed).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
    expect(d.resource("site").outputs.__provider).toBe(shim);
    expect(d.resource("site").outputs.implementation).toBe("v2");
    // And destroys with it: the stored shim loads whatever the package now is.
    const destroyed = await run("destroy");
    expect(destroyed.error).toBeUndefined();
    expect(d.state().resources.filter((r) => r.custom)).toEqual([]);
    expect(d.emu.store.sites.size).toBe(0);
    expect(d.emu.store.openApiSpecs.size).toBe(0);
  });

  it("never prints the token: not in the host's output, the plans, the reports, the copied package or program", () => {
    expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(d.emu.token);
    for (const [file, text] of filesUnder(d.dir)) expect(text, file).not.toContain(d.emu.token);
  });
});
