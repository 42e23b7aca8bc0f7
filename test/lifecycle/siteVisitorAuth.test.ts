/**
 * A site's visitor authentication through the real CLI: the private key GitBook returns is a secret
 * in state and appears in no file, log or plan; the `regenerate` trigger sends exactly one regenerate
 * call when its value changes; app edits show at refresh; destroy sends nothing and leaves the settings.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { describeDeployments, filesUnder, startDeployment, type Deployment } from "../support/lifecycle";

const AUTH = "/v1/orgs/:org/sites/:site/publishing/auth";
const program = (args: Record<string, unknown> = {}): Decl[] => [
  { kind: "Site", name: "docs", args: { title: "Private Docs" } },
  { kind: "SiteVisitorAuth", name: "auth", args: { siteId: { $ref: "docs.id" }, backend: "custom", fallbackURL: "https://login.acme.test/", regenerate: "v1", ...args } },
];

describeDeployments("SiteVisitorAuth through the dynamic-provider host", () => {
  let d: Deployment;
  let site: string;
  const live = () => d.emu.store.publishingAuths.get(site)!;
  /** Every key the site has had must be nowhere but encrypted in state. */
  const keys: string[] = [];
  const expectNowhere = (stdout: string) => {
    for (const key of keys) {
      expect(stdout).not.toContain(key);
      expect(JSON.stringify(d.state())).not.toContain(key);
      expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(key);
      // The harness runs the CLI with debug logging, in which the Node SDK prints each RegisterResource
      // answer, secrets included (as it does for every secret output): a user who turns debug logging on
      // gets them. Every other line of every file must not hold the key.
      for (const [file, text] of filesUnder(d.dir)) {
        const lines = text.split("\n").filter((l) => !l.includes('"prefix":"debug: "') && !/^\S*\s*debug:|RegisterResource RPC finished/.test(l));
        expect(lines.join("\n"), file).not.toContain(key);
      }
    }
  };
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("applies the declared settings and keeps the private key a secret", async () => {
    const r = await d.run("up", program());
    expect(r.error).toBeUndefined();
    site = d.resource("docs").id!;
    expect(d.resource("auth").id).toBe(site);
    expect(live()).toMatchObject({ backend: "custom", fallbackURL: "https://login.acme.test/" });
    keys.push(live().privateKey);
    expect(d.resource("auth").outputs.privateKey).toMatchObject({ ciphertext: expect.stringMatching(/^v1:/) });
    expectNowhere(r.stdout);
    d.emu.log.reset();
    expect((await d.run("up")).error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);
  });

  it("regenerates the key with one call (after reading the key) when the trigger changes, and only then", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program({ regenerate: "v2" }));
    expect(r.error).toBeUndefined();
    expect(r.steps.find((s) => s.name === "auth")).toMatchObject({ op: "update", changed: ["regenerate"] });
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${AUTH}`]: 1, [`POST ${AUTH}/regenerate`]: 1 });
    expect(live().privateKey).not.toBe(keys[0]);
    keys.push(live().privateKey);
    expectNowhere(r.stdout);
    d.emu.log.reset();
    expect((await d.run("up", program({ regenerate: "v2" }))).error).toBeUndefined();
    expect(d.emu.log.writes()).toBe(0);
  });

  it("shows an app edit at refresh and converges it with one PATCH", async () => {
    live().fallbackURL = "https://elsewhere.acme.test/";
    const r = await d.run("refresh");
    expect(r.steps.find((s) => s.name === "auth")?.changed).toContain("fallbackURL");
    expectNowhere(r.stdout);
    d.emu.log.reset();
    expect((await d.run("up", program({ regenerate: "v2" }))).error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${AUTH}`]: 1, [`PATCH ${AUTH}`]: 1 });
    expect(live().fallbackURL).toBe("https://login.acme.test/");
  });

  it("destroys without a request to the settings, which the site keeps", async () => {
    d.emu.log.reset();
    const r = await d.run("up", program().slice(0, 1));
    expect(r.error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);
    expect(live()).toMatchObject({ fallbackURL: "https://login.acme.test/", privateKey: keys[1] });
    expect((await d.run("destroy")).error).toBeUndefined();
  });
});
