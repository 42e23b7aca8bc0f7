/**
 * What of a site's settings only the engine shows, the rest of them being in process
 * (test/unit/siteSettings.test.ts), in one stack and two runs:
 * - the site's address (issue 42): a new basename is planned as an update of the share link and the
 *   publication built on it too (`address`, which the resource classes fill in the program process
 *   from the Site's declaration), applied after the Site's, so that their URLs in state are GitBook's
 *   when the up ends;
 * - visitor authentication: the private key GitBook returns is a secret in state, and appears in no
 *   file, log or plan, neither at the create nor after the `regenerate` trigger made a new one.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, filesUnder, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { differencesFromGitBook } from "../support/stateIsGitBook";

const ref = (s: string) => ({ $ref: s });

const program = (basename: string, regenerate: string): Decl[] => [
  { kind: "Site", name: "addressed", args: { title: "Addressed Docs", visibility: "share-link", basename } },
  { kind: "ShareLink", name: "addressed-link", args: { siteId: ref("addressed.id"), name: "Reviewers" } },
  { kind: "SitePublication", name: "addressed-live", args: { siteId: ref("addressed.id"), published: true } },
  { kind: "Site", name: "private", args: { title: "Private Docs" } },
  { kind: "SiteVisitorAuth", name: "auth", args: { siteId: ref("private.id"), backend: "custom", fallbackURL: "https://login.acme.test/", regenerate } },
];

describeDeployments("a site's address and its visitor authentication's key, through the engine", () => {
  let d: Deployment;
  /** Every key the private site has had must be nowhere but encrypted in state. */
  const keys: string[] = [];
  const key = () => d.emu.store.publishingAuths.get(d.resource("private").id!)!.privateKey;
  const expectKeysNowhere = (stdout: string) => {
    for (const k of keys) {
      expect(stdout).not.toContain(k);
      expect(JSON.stringify(d.state())).not.toContain(k);
      expect(fs.readFileSync(d.hostLog, "utf8")).not.toContain(k);
      // The harness runs the CLI with debug logging, in which the Node SDK prints each RegisterResource
      // answer, secrets included (as it does for every secret output): a user who turns debug logging on
      // gets them. Every other line of every file must not hold the key.
      for (const [file, text] of filesUnder(d.dir)) {
        const lines = text.split("\n").filter((l) => !l.includes('"prefix":"debug: "') && !/^\S*\s*debug:|RegisterResource RPC finished/.test(l));
        expect(lines.join("\n"), file).not.toContain(k);
      }
    }
  };
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("creates, the private key a secret in state and nowhere else", async () => {
    const r = await d.run("up", program("addressed-1", "v1"));
    expect(r.error).toBeUndefined();
    keys.push(key());
    expect(d.resource("auth").outputs.privateKey).toMatchObject({ ciphertext: expect.stringMatching(/^v1:/) });
    expectKeysNowhere(r.stdout);
  });

  it("a new basename updates the share link and the publication too (address), after the Site, their URLs GitBook's; a new key nowhere either", async () => {
    const site = d.resource("addressed").id!;
    d.emu.log.reset();
    const r = await d.run("up", program("addressed-2", "v2"));
    expect(r.error).toBeUndefined();
    const stepOf = (name: string) => r.steps.find((s) => s.name === name);
    expect(stepOf("addressed")).toMatchObject({ op: "update", changed: ["basename"] });
    expect(stepOf("addressed-link")).toMatchObject({ op: "update", changed: ["address"] });
    expect(stepOf("addressed-live")).toMatchObject({ op: "update", changed: ["address"] });
    // One site PATCH, and the share link and the publication read again after it, nothing sent for them.
    const mine: Record<string, number> = {};
    for (const e of d.emu.log.entries) if (e.path.split("/").includes(site)) mine[`${e.method} ${e.route}`] = (mine[`${e.method} ${e.route}`] ?? 0) + 1;
    expect(mine).toEqual({ "PATCH /v1/orgs/:org/sites/:site": 1, "GET /v1/orgs/:org/sites/:site/share-links": 1, "GET /v1/orgs/:org/sites/:site": 1 });
    expect(d.resource("addressed-live").outputs.publishedUrl).toMatch(/\/addressed-2$/);
    expect(await differencesFromGitBook(d.emu, d.state().resources)).toEqual([]);
    expect(key()).not.toBe(keys[0]);
    keys.push(key());
    expectKeysNowhere(r.stdout);
  });
});
