/**
 * Values not known until apply, through the dynamic-provider host (issue 11, item 7): when an input of
 * an existing resource becomes an output of a resource that does not exist yet, preview shows an
 * update of that resource, never a replacement (nor, through an unknown ID, replacements of its
 * children), unless the unknown input is itself replace-only. One preview shows the three cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { ref } from "../support/scenarios";
import { ORG_QUESTION } from "../support/provider";

describeDeployments("an input that becomes an unknown output of a new resource", () => {
  let d: Deployment;
  const site = (visibility: unknown): Decl => ({ kind: "Site", name: "site", args: { title: "Unknown Docs", visibility } });
  const section = (d: Deployment): Decl => ({
    kind: "SiteSection",
    name: "section",
    args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0], title: "Guides" },
  });
  const spec = (url: unknown): Decl => ({ kind: "OpenApiSpec", name: "spec", args: { slug: "unknowns", source: { url } } });
  // A new site declared without visibility: its `visibility` output is known only once it exists.
  const newSite: Decl = { kind: "Site", name: "other", args: { title: "Other Docs" } };

  // A second section of the site, whose siteId the preview makes the unknown ID of a new site.
  const moved = (siteId: unknown): Decl => ({ kind: "SiteSection", name: "moved", args: { siteId, spaceId: d.emu.seeded.spaceIds[1], title: "Moved" } });

  beforeAll(async () => {
    d = await startDeployment();
    const r = await d.run("up", [site("unlisted"), section(d), moved(ref("site.id")), spec("https://api.acme.test/openapi.json")]);
    expect(r.error).toBeUndefined();
  });
  afterAll(async () => d?.close());

  // One preview for the three cases (issue 23: engine runs are the suite's cost), each on its own resource.
  describe("one preview", () => {
    let preview: Awaited<ReturnType<Deployment["run"]>>;
    beforeAll(async () => {
      d.emu.log.reset();
      const agents: Decl = { kind: "Site", name: "site", args: { title: "Unknown Docs", visibility: "unlisted", agentsContext: ref("other.createdAt") } };
      preview = await d.run("preview", [
        newSite,
        { kind: "Site", name: "typed", args: { title: "Typed Docs" } },
        agents,
        section(d),
        moved(ref("typed.id")),
        spec(ref("other.urls.published")),
      ]);
    });

    it("shows an update of the site (not a replacement), and its section unchanged", () => {
      expect(preview.error).toBeUndefined();
      expect(steps(preview).sort()).toEqual(["create other", "create typed", "replace moved", "same section", "update site", "update spec"]);
      expect(preview.steps.find((s) => s.name === "site")!.replaces ?? []).toEqual([]);
      expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
    });

    it("shows an update of an OpenAPI spec whose source.url is unknown", () => {
      expect(preview.steps.find((s) => s.name === "spec")).toMatchObject({ op: "update" });
      expect(preview.steps.find((s) => s.name === "spec")!.replaces ?? []).toEqual([]);
    });

    it("still shows a replacement when the unknown input is replace-only", () => {
      expect(preview.steps.find((s) => s.name === "moved")).toMatchObject({ op: "replace", replaces: ["siteId"] });
    });
  });

  it("then, at up, sends one PATCH for the site", async () => {
    const id = d.resource("site").id;
    d.emu.log.reset();
    const r = await d.run("up", [newSite, site(ref("other.visibility")), section(d), moved(ref("site.id")), spec("https://api.acme.test/openapi.json")]);
    expect(r.error).toBeUndefined();
    expect(d.resource("site").id).toBe(id);
    expect(d.emu.log.count({ method: "POST" })).toBe(1);
    expect(d.emu.log.count({ method: "PATCH" })).toBe(1);
    expect(d.emu.log.writes()).toBe(2);
    expect(d.emu.store.sites.get(id!)!.visibility).toBe("public");
  });
});
