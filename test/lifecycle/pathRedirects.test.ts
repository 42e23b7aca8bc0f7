/**
 * `redirectOldPath` through the real CLI: what the plan shows when the program changes a section's
 * path (the path change and the redirect it adds, as an `oldPathRedirects` entry), the one rule the up
 * makes, and a rule deleted in the app seen by refresh and put back by the next up. Five engine runs.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

function program(d: Deployment, path: string): Decl[] {
  return [
    { kind: "Site", name: "site", args: { title: "Moving Docs", published: true } },
    { kind: "SiteSection", name: "guides", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0], path, redirectOldPath: true } },
  ];
}

const rules = (d: Deployment) => [...d.emu.store.siteRedirects.values()].map((r) => [r.source, (r.destination as { url?: string }).url]);

describeDeployments("a section whose path changes with redirectOldPath", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("shows the redirect in the plan, makes it once, and puts it back after it is deleted in the app", async () => {
    expect((await d.run("up", program(d, "guides-v1"))).error).toBeUndefined();
    const siteUrl = String((d.resource("site").outputs.urls as { published: string }).published).replace(/\/$/, "");

    // The plan: the path change, and beside it the redirect from the old path.
    d.emu.log.reset();
    const preview = await d.run("preview", program(d, "guides-v2"), { flags: ["--diff"] });
    expect(preview.error).toBeUndefined();
    expect(preview.steps.find((s) => s.name === "guides")).toMatchObject({ op: "update", changed: expect.arrayContaining(["path", "oldPathRedirects"]) });
    expect(preview.stdout).toMatch(/~ path\s*:\s*"guides-v1" => "guides-v2"/);
    expect(preview.stdout).toMatch(/\+ oldPathRedirects\s*:\s*\[\s*\+\s*\[0\]: \{\s*\+ path: "guides-v1"/);
    expect(d.emu.log.writes()).toBe(0);

    d.emu.log.reset();
    const up = await d.run("up", program(d, "guides-v2"));
    expect(up.error).toBeUndefined();
    expect(rules(d)).toEqual([["/guides-v1/*", `${siteUrl}/guides-v2`]]);
    expect(d.emu.log.count({ method: "POST", route: /\/redirects$/ })).toBe(1);
    expect(d.resource("guides").inputs.oldPathRedirects).toEqual([{ path: "guides-v1" }]);

    // Deleted in the app: refresh shows it, and the next up makes it again (one rule, never two).
    d.emu.store.siteRedirects.clear();
    const refresh = await d.run("refresh", undefined, { flags: ["--diff"] });
    expect(refresh.error).toBeUndefined();
    expect(refresh.stdout).toMatch(/\+ status\s*:\s*"deleted in GitBook"/);
    const again = await d.run("up", program(d, "guides-v2"));
    expect(again.error).toBeUndefined();
    expect(steps(again)).toContain("update guides");
    expect(rules(d)).toEqual([["/guides-v1/*", `${siteUrl}/guides-v2`]]);
    expect(d.resource("guides").outputs.oldPathRedirects).toEqual([{ path: "guides-v1" }]);
  });
});
