/**
 * What a user sees from the real `pulumi` CLI (built by `npm run pulumi-cli`; local file backend;
 * the emulator): the main example on both stacks with the token given both ways, what
 * `pulumi stack export` holds, the plans `preview --diff` and `preview --json` print, and exit codes
 * of runs that fail. Every other suite that deploys programs (test/lifecycle, test/examples,
 * test/faults) also runs through the CLI when it is built; this one exists only for the CLI.
 *
 * Outside CI, without a built CLI, it skips and says how to build it; in CI it fails instead.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Emulator } from "../../emulator";
import { createCliStack, cliMissing, type CliStack } from "../../dev/pulumiCli";
import { EXAMPLE_DIR, exampleConfig } from "../../dev/example";
import { filesUnder, startDeployment, steps, type Deployment } from "../support/lifecycle";

const missing = cliMissing();
if (missing && process.env.CI === "true") throw new Error(`CI must run the CLI suite, and ${missing}`);
if (missing) console.warn(`test/cli skipped: ${missing}`);

const ref = (s: string) => ({ $ref: s });

describe.skipIf(!!missing)("the main example through the Pulumi CLI", () => {
  for (const [stackName, tokenVia] of [
    ["dev", "secret config"],
    ["prod", "GITBOOK_TOKEN"],
  ] as const) {
    describe(`stack ${stackName}, token from ${tokenVia}`, () => {
      let emu: Emulator;
      let dir: string;
      let stack: CliStack;
      let config: Record<string, string>;
      beforeAll(async () => {
        emu = await Emulator.start();
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "gitbook-cli-example-"));
        stack = await createCliStack(dir, EXAMPLE_DIR, stackName, tokenVia === "GITBOOK_TOKEN" ? { env: { GITBOOK_TOKEN: emu.token } } : {});
        config = exampleConfig(emu);
        if (tokenVia === "GITBOOK_TOKEN") delete config["gitbook:token"];
      });
      afterAll(async () => {
        await emu?.close();
      });

      it("reads the token from where it was given, previewing without a request", async () => {
        const r = await stack.run("preview", config);
        expect(r.code, r.stdout).toBe(0);
        expect(steps(r).every((s) => s.startsWith("create "))).toBe(true);
        expect(emu.log.count()).toBe(0);
        if (tokenVia === "secret config") expect(fs.readFileSync(stack.configFile, "utf8")).toMatch(/gitbook:token:\n\s+secure: v1:/);
      });

      it("converges, then `up --expect-no-changes` passes without a request", async () => {
        const up = await stack.run("up", config);
        expect(up.code, up.stdout).toBe(0);
        expect(emu.store.sites.size).toBe(1);
        emu.log.reset();
        const again = await stack.run("up", config, { flags: ["--expect-no-changes"] });
        expect(again.code, again.stdout).toBe(0);
        expect(emu.log.count()).toBe(0);
      });

      it("keeps the token, absolute paths and secrets out of `pulumi stack export`, with one __provider text per kind", async () => {
        const exported = stack.exported();
        const text = JSON.stringify(exported);
        expect(text).not.toContain(emu.token);
        for (const [file, body] of filesUnder(dir)) expect(body, file).not.toContain(emu.token);
        const resources = exported.deployment.resources ?? [];
        const providers = new Map<string, Set<string>>();
        for (const r of resources.filter((x) => x.custom && String(x.type).startsWith("pulumi-nodejs:dynamic"))) {
          const p = String(r.outputs.__provider);
          expect(p).not.toMatch(/\/(work|home|tmp|usr|root)\//);
          if (!providers.has(r.type)) providers.set(r.type, new Set());
          providers.get(r.type)!.add(p);
        }
        expect(providers.size).toBeGreaterThan(3);
        for (const [type, texts] of providers) expect(texts.size, type).toBe(1);
        const links = resources.filter((x) => String(x.type).endsWith("gitbook:ShareLink"));
        expect(links.length).toBe(stackName === "dev" ? 1 : 0);
        for (const l of links) {
          expect(l.outputs.url).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
          const key = [...emu.store.shareLinks.values()][0]!.key;
          expect(text).not.toContain(key);
        }
      });

      // The plans do not depend on where the token came from: one stack shows them.
      it.runIf(stackName === "dev")("shows old and new values in `preview --diff`, and a plan a pull-request comment can be built from in `preview --json`", async () => {
        const changed = { ...config, "docs-site:title": "Acme Docs, renamed" };
        const diff = await stack.run("preview", changed, { flags: ["--diff"] });
        expect(diff.code, diff.stdout).toBe(0);
        expect(diff.stdout).toMatch(/~ title\s*: "Acme Developer Docs[^"]*" => "Acme Docs, renamed"/);
        const { file } = await stack.writeRunConfig(changed);
        const json = await stack.pulumi(["preview", "--json", "-s", stackName, "--config-file", file, "--non-interactive"]);
        expect(json.code, json.stderr).toBe(0);
        const plan = JSON.parse(json.stdout) as { steps: Array<{ op: string; urn: string }>; changeSummary: Record<string, number> };
        const updates = plan.steps.filter((s) => s.op === "update" && s.urn.endsWith("::docs"));
        expect(updates.length).toBe(1);
        expect(plan.changeSummary.update).toBeGreaterThanOrEqual(1);
        expect(emu.log.writes()).toBe(0);
      });

      it("destroys to nothing", async () => {
        const r = await stack.run("destroy", config);
        expect(r.code, r.stdout).toBe(0);
        expect(emu.store.sites.size).toBe(0);
        expect(emu.store.teams.size).toBe(0);
        expect(emu.store.openApiSpecs.size).toBe(0);
        expect(stack.state().resources).toEqual([]);
      });
    });
  }
});

describe.skipIf(!!missing)("runs that fail, through the Pulumi CLI", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment({ engine: "cli" });
  });
  afterAll(async () => d?.close());

  it("fails `pulumi preview` on bad input, naming the field and the limit, without a request", async () => {
    const r = (await d.run("preview", [{ kind: "Site", name: "site", args: { title: "x" } }])) as Awaited<ReturnType<CliStack["run"]>>;
    expect(r.code).not.toBe(0);
    expect(r.stdout).toMatch(/title must be 2 to 128 characters/);
    expect(d.emu.log.count()).toBe(0);
  });

  it("fails `pulumi up` when a create fails, and records nothing", async () => {
    const r = (await d.run("up", [
      { kind: "Site", name: "site", args: { title: "Failing Docs" } },
      { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: "spc_does_not_exist", title: "Guides" } },
    ])) as Awaited<ReturnType<CliStack["run"]>>;
    expect(r.code).not.toBe(0);
    expect(r.error).toMatch(/spc_does_not_exist|404/);
    expect(d.state().resources.some((x) => x.name === "section")).toBe(false);
    expect(d.emu.store.sections.size).toBe(0);
  });

  it("keeps a partial failure in state, fails the run, and finishes the job on the next up", async () => {
    const team = (members: unknown[]) => [{ kind: "Team", name: "team", args: { title: "Docs Team", members } }];
    const r = (await d.run("up", team([{ user: "nobody@elsewhere.test" }]))) as Awaited<ReturnType<CliStack["run"]>>;
    expect(r.code).not.toBe(0);
    const kept = d.resource("team");
    expect(kept.id).toBeDefined();
    expect(d.emu.store.teams.has(kept.id!)).toBe(true);
    const member = d.emu.seeded.members[1]!;
    const next = await d.run("up", team([{ user: member.email }]));
    expect(next.error).toBeUndefined();
    expect(d.resource("team").id).toBe(kept.id);
    expect(d.emu.store.teams.size).toBe(1);
    expect([...d.emu.store.teamMembers.values()].map((m) => m.userId)).toContain(member.id);
  });

  it("keeps a secret input secret in state", async () => {
    const r = await d.run("up", [
      {
        kind: "SamlProvider",
        name: "sso",
        // As a program would: from secret stack config.
        args: { label: "Okta", entityID: "http://www.okta.com/exk1", ssoURL: "https://acme.okta.com/sso", certificate: { $secretConfig: "samlCertificate" } },
      },
    ], { config: { "lifecycle:samlCertificate": "MIIC-secret-certificate" } });
    expect(r.error).toBeUndefined();
    expect(JSON.stringify(d.state())).not.toContain("MIIC-secret-certificate");
    expect(fs.readFileSync(d.statePath, "utf8")).not.toContain("MIIC-secret-certificate");
    expect(d.resource("sso").inputs.certificate).toMatchObject({ ciphertext: expect.any(String) });
  });
});
