/**
 * Plans a reviewer can read, through the real CLI: `pulumi preview --diff` of a change to a site's
 * navigation names every listed item by its title path beside its ID, in the order the site will show
 * them, and never makes the order flap when a title changes (in the program or in the app).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

describeDeployments("plans name the navigation's items", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  function program(order: string[], titles: Record<string, string> = {}, extra: Decl[] = []): Decl[] {
    const spaces = d.emu.seeded.spaceIds;
    const section = (name: string, title: string, space: number): Decl => ({
      kind: "SiteSection",
      name,
      args: { siteId: ref("site.id"), spaceId: spaces[space], title: titles[name] ?? title },
    });
    return [
      { kind: "Site", name: "site", args: { title: "Plans Docs" } },
      section("guides", "Guides", 0),
      section("api", "API", 1),
      section("changelog", "Changelog", 3),
      section("sdk", "SDK", 4),
      ...extra,
      { kind: "SiteSectionGroup", name: "tools", args: { siteId: ref("site.id"), title: "Tools", sections: [ref("sdk.id")] } },
      { kind: "SiteExternalLink", name: "status", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["guides"] },
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: order.map((n) => ref(`${n}.id`)), groups: [{ groupId: ref("tools.id"), items: [ref("sdk.id")] }] } },
    ];
  }
  const idOf = (name: string) => d.resource(name).id!;
  /** The order resource's part of a `--diff` plan. */
  const orderPart = (stdout: string) => stdout.slice(stdout.indexOf("gitbook:SiteStructureOrder"), stdout.indexOf("Resources:"));

  it("previews a reorder with each item's title beside its ID, in the site's order", async () => {
    expect((await d.run("up", program(["guides", "api", "changelog", "tools", "status"]))).error).toBeUndefined();
    d.emu.log.reset();
    const r = await d.run("preview", program(["changelog", "guides", "api", "tools", "status"]), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((s) => !s.startsWith("same"))).toEqual(["update order"]);
    const plan = orderPart(r.stdout);
    const [guides, api, changelog] = ["guides", "api", "changelog"].map(idOf);
    expect(plan).toContain(`~ [0]: "Guides (${guides})" => "Changelog (${changelog})"`);
    expect(plan).toContain(`~ [1]: "API (${api})" => "Guides (${guides})"`);
    expect(plan).toContain(`~ [2]: "Changelog (${changelog})" => "API (${api})"`);
    // A group's items follow it, named by their path.
    expect(plan).toContain(`[3]: "Tools (${idOf("tools")})"`);
    expect(plan).toContain(`[4]: "Tools / SDK (${idOf("sdk")})"`);
    expect(d.emu.log.count()).toBe(0);
  });

  it("names an item not created yet by its title", async () => {
    const added: Decl = { kind: "SiteSection", name: "faq", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[2], title: "FAQ" } };
    const r = await d.run("preview", program(["guides", "faq", "api", "changelog", "tools", "status"], {}, [added]), { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    expect(orderPart(r.stdout)).toContain(`~ [1]: "API (${idOf("api")})" => "FAQ (new)"`);
  });

  it("does not flap when a title changes, in the program or in the app", async () => {
    const order = ["guides", "api", "changelog", "tools", "status"];
    const renamed = await d.run("preview", program(order, { api: "API reference" }));
    expect(steps(renamed).filter((s) => !s.startsWith("same"))).toEqual(["update api"]);
    d.emu.store.sections.get(idOf("changelog"))!.title = "Release notes";
    const refreshed = await d.run("refresh");
    expect(refreshed.steps.find((s) => s.name === "order")?.changed ?? []).toEqual([]);
    d.emu.log.reset();
    const again = await d.run("up", program(order, { changelog: "Release notes" }));
    expect(steps(again).every((s) => s.startsWith("same"))).toBe(true);
    expect(d.emu.log.count()).toBe(0);
  });

  it("shows a reorder made in the app by name at refresh", async () => {
    d.emu.store.setOrder(["status", "tools", "changelog", "api", "guides"].map(idOf));
    const r = await d.run("refresh", undefined, { flags: ["--diff"] });
    expect(r.steps.find((s) => s.name === "order")?.changed).toContain("navigation");
    expect(d.resource("order").inputs.navigation).toEqual([
      `Status (${idOf("status")})`,
      `Tools (${idOf("tools")})`,
      `Tools / SDK (${idOf("sdk")})`,
      `Release notes (${idOf("changelog")})`,
      `API (${idOf("api")})`,
      `Guides (${idOf("guides")})`,
    ]);
  });
});
