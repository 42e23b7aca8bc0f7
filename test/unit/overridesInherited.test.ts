/**
 * A site space's declared override is an override, even where the site space already shows that value
 * because it inherits it from its site: the create (and a forced replacement's create, which follows
 * the old one's clearing) must not take "shows the value" for "holds the override", or the next change
 * of the site's branding (by this program or in the app) changes the site space the program pinned.
 */
import { describe, expect, it } from "vitest";
import { programSuite, stepNames } from "../support/program";
import { ref, site } from "../support/scenarios";

type Json = Record<string, any>;
const RED = { light: "#cc0000", dark: "#ff6666" };
const BLUE = { light: "#0055a4", dark: "#6f9fff" };

describe("SiteSpaceCustomization over a site showing the declared value", () => {
  const s = programSuite();
  const space = { kind: "Space", name: "guides", args: { title: "Guides" } };
  const section = { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: ref("guides.id") } };
  const branding = (primaryColor: Json) => ({ kind: "SiteCustomization", name: "branding", args: { siteId: ref("site.id"), styling: { primaryColor } } });
  const overrides = { kind: "SiteSpaceCustomization", name: "v1-branding", args: { siteId: ref("site.id"), siteSpaceId: ref("section.siteSpaceId"), styling: { primaryColor: RED } } };
  const stored = () => s.env.emu.store.siteSpaceCustomizations.get(s.p.resource("section").outputs.siteSpaceId as string)?.overrides as Json | undefined;
  /** What the site space shows, as GitBook answers it. */
  const shown = async () => {
    const siteId = s.p.resource("site").id;
    const ss = s.p.resource("section").outputs.siteSpaceId as string;
    const res = await fetch(`${s.env.emu.url}/v1/orgs/${s.env.org}/sites/${siteId}/site-spaces/${ss}/customization`, { headers: { authorization: `Bearer ${s.env.emu.token}` } });
    return ((await res.json()) as Json).styling.primaryColor;
  };

  it("sets the override at create, so a later change of the site's colour leaves the site space as declared", async () => {
    await s.p.up([space, site(), section, branding(RED)]);
    await s.p.up([space, site(), section, branding(RED), overrides]);
    expect(stored()?.styling?.primaryColor).toEqual(RED);

    expect(stepNames(await s.p.up([space, site(), section, branding(BLUE), overrides]))).toContain("update branding");
    expect(await shown()).toEqual(RED);
    expect((await s.p.refresh()).filter((x) => x.op !== "same")).toEqual([]);
  });

  it("a forced replacement sets it again after the old one's clearing", async () => {
    await s.p.up([space, site(), section, branding(RED), overrides]);
    await s.p.replace("v1-branding");
    expect(stored()?.styling?.primaryColor).toEqual(RED);
    await s.p.up([space, site(), section, branding(BLUE), overrides]);
    expect(await shown()).toEqual(RED);
  });

  it("sends no write when the site space already overrides the declared value (its site shows another)", async () => {
    await s.p.up([space, site(), section, branding(BLUE)]);
    expect(stored()?.styling?.primaryColor).toBeUndefined();
    // The app overrides it.
    const siteId = s.p.resource("site").id;
    const ss = s.p.resource("section").outputs.siteSpaceId as string;
    const res = await fetch(`${s.env.emu.url}/v1/orgs/${s.env.org}/sites/${siteId}/site-spaces/${ss}/customization`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${s.env.emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ styling: { primaryColor: RED } }),
    });
    expect(res.status).toBe(200);
    s.env.emu.log.reset();
    await s.p.up([space, site(), section, branding(BLUE), { ...overrides, name: "again" }]);
    expect(s.env.emu.log.writes()).toBe(0);
    expect(stored()?.styling?.primaryColor).toEqual(RED);
  });
});
