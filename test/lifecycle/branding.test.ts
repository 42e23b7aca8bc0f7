/**
 * Branding through the real CLI: a site branded in the app gets the program's three settings and keeps
 * every other, a site space's overrides are set and cleared one by one, a second customization of one
 * site is refused at preview with nothing sent, refresh shows app edits of declared settings, and
 * destroy leaves the site's settings as they are. (Not in everyKind: like SitePublication, deleting a
 * customization leaves the settings in place, so its replace and destroy checks do not apply.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultCustomization } from "../../emulator/resources/customization";
import type { Decl } from "../support/lifecycle";
import { describeDeployments, startDeployment, steps, type Deployment } from "../support/lifecycle";

const CUSTOM = "/v1/orgs/:org/sites/:site/customization";
const OVERRIDE = "/v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization";
const ref = (s: string) => ({ $ref: s });
type Json = Record<string, any>;

describeDeployments("SiteCustomization and SiteSpaceCustomization through the dynamic-provider host", () => {
  let d: Deployment;
  let siteId: string;
  let siteSpaceId: string;
  const base = (): Decl[] => [
    { kind: "Site", name: "docs", args: { title: "Branded Docs" } },
    { kind: "SiteSection", name: "guides", args: { siteId: ref("docs.id"), spaceId: d.emu.seeded.spaceIds[0] } },
  ];
  const branding = (args: Json = {}): Decl => ({
    kind: "SiteCustomization",
    name: "branding",
    args: { siteId: ref("docs.id"), styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" } }, footer: { copyright: "© Acme Inc." }, themes: { default: "dark" }, ...args },
  });
  const overrides = (args: Json = { title: "Guides FR" }): Decl => ({ kind: "SiteSpaceCustomization", name: "guides-branding", args: { siteId: ref("docs.id"), siteSpaceId: ref("guides.siteSpaceId"), ...args } });
  const settings = () => d.emu.store.siteCustomizations.get(siteId)!.settings as Json;
  const stored = () => d.emu.store.siteSpaceCustomizations.get(siteSpaceId)?.overrides;
  let before: Json;

  beforeAll(async () => {
    d = await startDeployment();
    expect((await d.run("up", base())).error).toBeUndefined();
    siteId = d.resource("docs").id!;
    siteSpaceId = d.resource("guides").outputs.siteSpaceId as string;
    // Branded in the app: every group differs from GitBook's defaults.
    const def = defaultCustomization() as Json;
    before = {
      ...def,
      title: "Acme",
      styling: { ...def.styling, theme: "bold", corners: "straight", font: "Lato" },
      header: { ...def.header, links: [{ title: "Home", to: { kind: "url", url: "https://acme.test" }, links: [] }] },
      favicon: { emoji: "🚀" },
      feedback: { enabled: true },
    };
    d.emu.store.siteCustomizations.set(siteId, { id: siteId, seq: 0, createdAt: "", siteId, settings: structuredClone(before), updatedAt: new Date().toISOString() });
  });
  afterAll(async () => d?.close());

  it("refuses two customizations of one site at preview, naming both, with nothing sent", async () => {
    d.emu.log.reset();
    const r = await d.run("preview", [...base(), branding(), { ...branding({ title: "Other" }), name: "rebranding" }]);
    expect(r.error).toBeDefined();
    expect(r.stdout).toContain('SiteCustomization "rebranding": siteId: SiteCustomization "branding" already manages this site');
    expect(d.emu.log.count()).toBe(0);
  });

  it("previews with nothing sent, then sets the declared settings with one GET and one PUT, keeping every other", async () => {
    d.emu.log.reset();
    const preview = await d.run("preview", [...base(), branding(), overrides()]);
    expect(preview.error).toBeUndefined();
    expect(steps(preview)).toEqual(expect.arrayContaining(["create branding", "create guides-branding"]));
    expect(d.emu.log.count()).toBe(0);

    const r = await d.run("up");
    expect(r.error).toBeUndefined();
    expect(d.emu.log.byRoute()).toEqual({ [`GET ${CUSTOM}`]: 1, [`PUT ${CUSTOM}`]: 1, [`GET ${OVERRIDE}`]: 1, [`PATCH ${OVERRIDE}`]: 1 });
    expect(settings()).toEqual({
      ...before,
      styling: { ...before.styling, primaryColor: { light: "#346ddb", dark: "#8fb3ff" } },
      footer: { ...before.footer, copyright: "© Acme Inc." },
      themes: { ...before.themes, default: "dark" },
    });
    expect(stored()).toEqual({ title: "Guides FR" });

    d.emu.log.reset();
    const again = await d.run("up");
    expect(steps(again).every((s) => s.startsWith("same"))).toBe(true);
    expect(d.emu.log.count()).toBe(0);
  });

  it("shows app edits of declared settings as drift at refresh, and none of others; up converges the declared ones alone", async () => {
    settings().themes.default = "light"; // declared
    settings().styling.theme = "muted"; // not declared
    stored()!.title = "Edited in the app"; // declared override
    const r = await d.run("refresh");
    expect(r.error).toBeUndefined();
    expect(r.steps.find((s) => s.name === "branding")).toMatchObject({ op: "refresh", changed: ["themes"] });
    expect(r.steps.find((s) => s.name === "guides-branding")).toMatchObject({ op: "refresh", changed: ["title"] });
    const back = await d.run("up");
    expect(back.error).toBeUndefined();
    expect(settings().themes.default).toBe("dark");
    expect(settings().styling.theme).toBe("muted");
    expect(stored()).toEqual({ title: "Guides FR" });
  });

  it("destroy leaves the site's settings as they are and clears only the declared overrides", async () => {
    stored()!.footer = { copyright: "made in the app" };
    const current = structuredClone(settings());
    d.emu.log.reset();
    const r = await d.run("up", base());
    expect(r.error).toBeUndefined();
    expect(steps(r)).toEqual(expect.arrayContaining(["delete branding", "delete guides-branding"]));
    expect(d.emu.log.byRoute()).toEqual({ [`PATCH ${OVERRIDE}`]: 1 });
    expect(settings()).toEqual(current);
    expect(stored()).toEqual({ footer: { copyright: "made in the app" } });
    expect((await d.run("destroy")).error).toBeUndefined();
  });
});
