/**
 * A Site's `published` through the real CLI: created unpublished, published by declaring it (exactly
 * the publish call), unpublished in the app and shown as drift, converged, left alone once no longer
 * declared, and a checkout GitBook asks for reported as such.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Decl } from "../support/lifecycle";
import { describeDeployments, startDeployment, type Deployment } from "../support/lifecycle";

const PUBLISH = "POST /v1/orgs/:org/sites/:site/publish";
const docs = (args: Record<string, unknown> = {}): Decl[] => [{ kind: "Site", name: "docs", args: { title: "Published Docs", ...args } }];

describeDeployments("Site published through the dynamic-provider host", () => {
  let d: Deployment;
  let id: string;
  const live = () => d.emu.store.sites.get(id)!;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("creates a site unpublished when the program does not say", async () => {
    expect((await d.run("up", docs())).error).toBeUndefined();
    id = d.resource("docs").id!;
    expect(live().published).toBe(false);
    // Undeclared, the publication is not the Site's output (a SitePublication may own it).
    expect(d.resource("docs").outputs).not.toHaveProperty("published");
  });

  it("publishes when the program declares it: preview sends nothing, up exactly the publish call", async () => {
    d.emu.log.reset();
    const preview = await d.run("preview", docs({ published: true }));
    expect(preview.steps.find((s) => s.name === "docs")).toMatchObject({ op: "update", changed: ["published"] });
    expect(d.emu.log.count()).toBe(0);
    const r = await d.run("up");
    expect(r.error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({ [PUBLISH]: 1 });
    expect(live().published).toBe(true);
    expect(d.resource("docs").outputs).toMatchObject({ published: true, urls: { published: expect.stringMatching(/^https:\/\//) } });

    d.emu.log.reset();
    expect((await d.run("up")).error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);
  });

  it("shows a site unpublished in the app as drift at refresh, and publishes it again with one call", async () => {
    live().published = false;
    const r = await d.run("refresh");
    const step = r.steps.find((s) => s.name === "docs")!;
    expect(step.changed).toContain("published");
    expect(d.resource("docs").inputs.published).toBe(false);
    d.emu.log.reset();
    const back = await d.run("up");
    const converged = back.steps.find((s) => s.name === "docs")!;
    expect(converged.op).toBe("update");
    expect(converged.changed).toContain("published");
    expect(d.emu.log.byRoute()).toEqual({ [PUBLISH]: 1 });
    expect(live().published).toBe(true);
  });

  it("leaves the site as it is once the program stops declaring it", async () => {
    d.emu.log.reset();
    const r = await d.run("up", docs());
    expect(r.error).toBeUndefined();
    expect(d.emu.log.count()).toBe(0);
    expect(live().published).toBe(true);
  });

  it("fails saying the plan needs a checkout, and leaves the site unpublished", async () => {
    expect((await d.run("up", docs({ published: false }))).error).toBeUndefined();
    d.emu.store.orgs.get(d.emu.seeded.organizationId)!.publishNeedsCheckout = true;
    const r = await d.run("up", docs({ published: true }));
    expect(r.error).toBeDefined();
    expect(r.stdout).toMatch(/Site docs: published: GitBook did not publish site \S+: the organization's plan needs an upgrade first \(GitBook answered with Stripe checkout session cs_\w+ instead\)/);
    expect(live().published).toBe(false);
  });
});
