/**
 * SiteCustomization and SiteSpaceCustomization in a program, in process: a branded site keeps every
 * setting the program does not declare, through create, update, refresh and delete; what each step
 * sends; limits stopped at preview; one resource per site.
 */
import { describe, expect, it } from "vitest";
import { defaultCustomization } from "../../emulator/resources/customization";
import { programSuite, stepNames } from "../support/program";
import { ORG_QUESTION } from "../support/provider";
import { ref, site } from "../support/scenarios";

const CUSTOM = "/v1/orgs/:org/sites/:site/customization";
const OVERRIDE = "/v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization";

type Json = Record<string, any>;

/** A site branded in the app: every group differs from GitBook's defaults. */
function branded(): Json {
  const d = defaultCustomization() as Json;
  return {
    ...d,
    title: "Acme Docs",
    styling: { ...d.styling, theme: "bold", primaryColor: { light: "#ff0000", dark: "#990000" }, corners: "straight", font: "Lato" },
    header: { ...d.header, logo: { light: "https://acme.test/a.png", dark: "https://acme.test/b.png" }, links: [{ title: "Home", to: { kind: "url", url: "https://acme.test" }, links: [] }] },
    footer: { groups: [{ title: "Legal", links: [] }], copyright: "© Acme" },
    favicon: { emoji: "🚀" },
    feedback: { enabled: true },
    socialAccounts: [{ platform: "github", handle: "acme", display: { footer: true, header: false } }],
  };
}

const declared = {
  styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" } },
  footer: { copyright: "© Acme Inc." },
  themes: { default: "dark" },
};
const customization = (args: Json) => ({ kind: "SiteCustomization", name: "branding", args: { siteId: ref("site.id"), ...args } });

describe("SiteCustomization", () => {
  const s = programSuite();
  let again: ReturnType<typeof customization>;
  const settings = () => s.env.emu.store.siteCustomizations.get(s.p.resource("site").id)!.settings as Json;

  it("stops a bad colour, an unknown theme or font, and a non-URL logo at preview, naming the setting, with no request but the site's question about the organization", async () => {
    const refused = async (args: Json, message: string) => {
      s.env.emu.log.reset();
      await expect(s.p.preview([site(), customization(args)])).rejects.toThrow(message);
      expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
    };
    await refused({ styling: { primaryColor: { light: "blue", dark: "#000" } } }, "styling.primaryColor.light must be a hex colour");
    await refused({ styling: { primaryColor: { light: "#000" } } }, "styling.primaryColor.dark is required");
    await refused({ styling: { theme: "neon" } }, 'styling.theme must be one of "clean", "muted", "bold", "gradient"');
    await refused({ styling: { font: "Comic Sans" } }, "styling.font must be one of ABCFavorit");
    await refused({ header: { logo: { light: "logo.png", dark: "https://acme.test/l.png" } } }, "header.logo.light must be an absolute http(s) URL");
    await refused({ title: "A" }, "title must be 2 to 128 characters");
    await refused({ ai: { suggestions: ["one?", "two?", "three?", "four?", "five?", "six?"] } }, "ai.suggestions must list at most 5 questions");
  });

  it("on a branded site, changes the three declared settings and sends every other back as it was (one GET, one PUT)", async () => {
    await s.p.up([site()]);
    const siteId = s.p.resource("site").id;
    const before = branded();
    s.env.emu.store.siteCustomizations.set(siteId, { id: siteId, seq: 0, createdAt: "", siteId, settings: structuredClone(before), updatedAt: new Date().toISOString() });

    s.env.emu.log.reset();
    expect(stepNames(await s.p.up([site(), customization(declared)]))).toEqual(["same site", "create branding"]);
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`GET ${CUSTOM}`]: 1, [`PUT ${CUSTOM}`]: 1 });
    expect(settings()).toEqual({
      ...before,
      styling: { ...before.styling, primaryColor: declared.styling.primaryColor },
      footer: { ...before.footer, copyright: "© Acme Inc." },
      themes: { ...before.themes, default: "dark" },
    });
    // State records the declared settings alone.
    const outs = s.p.resource("branding").outputs;
    expect(outs.styling).toEqual(declared.styling);
    expect(outs).not.toHaveProperty("header");
  });

  it("sends nothing when nothing changed, and one GET and one PUT for a changed setting", async () => {
    s.env.emu.log.reset();
    expect(stepNames(await s.p.up())).toEqual(["same site", "same branding"]);
    expect(s.env.emu.log.count()).toBe(0);

    const before = structuredClone(settings());
    s.env.emu.log.reset();
    const next = { ...declared, styling: { primaryColor: declared.styling.primaryColor, corners: "circular" } };
    expect(stepNames(await s.p.up([site(), customization(next)]))).toEqual(["same site", "update branding"]);
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`GET ${CUSTOM}`]: 1, [`PUT ${CUSTOM}`]: 1 });
    expect(settings()).toEqual({ ...before, styling: { ...before.styling, corners: "circular" } });
  });

  it("refresh shows an app edit of a declared setting as drift, and an edit of any other as nothing; the next up puts the declared value back alone", async () => {
    settings().styling.corners = "rounded"; // declared
    settings().styling.theme = "muted"; // not declared
    settings().announcement = { enabled: true, message: "Hello", style: "info" }; // not declared
    const steps = await s.p.refresh();
    expect(steps.find((x) => x.name === "branding")).toMatchObject({ op: "refresh", changed: ["styling"] });
    expect(s.p.resource("branding").outputs.styling).toEqual({ primaryColor: declared.styling.primaryColor, corners: "rounded" });

    expect(stepNames(await s.p.up())).toEqual(["same site", "update branding"]);
    expect(settings().styling).toMatchObject({ corners: "circular", theme: "muted" });
    expect(settings().announcement).toEqual({ enabled: true, message: "Hello", style: "info" });
  });

  it("removing a setting from the program leaves it as it is, with no PUT", async () => {
    s.env.emu.log.reset();
    expect(stepNames(await s.p.up([site(), customization({ footer: declared.footer, styling: { primaryColor: declared.styling.primaryColor, corners: "circular" } })]))).toEqual(["same site", "update branding"]);
    expect(s.env.emu.log.count({ method: "PUT" })).toBe(0);
    expect(settings().themes.default).toBe("dark");
  });

  it("adopts a site whose declared settings already hold with no write", async () => {
    s.env.emu.log.reset();
    await s.p.up([site()]);
    const current = structuredClone(settings());
    s.env.emu.log.reset();
    again = { ...customization({ title: current.title, styling: { theme: current.styling.theme } }), name: "again" };
    await s.p.up([site(), again]);
    expect(s.env.emu.log.writes()).toBe(0);
    expect(settings()).toEqual(current);
  });

  it("refuses a second SiteCustomization of the same site at create, sending nothing", async () => {
    s.env.emu.log.reset();
    await expect(s.p.up([site(), again, { ...customization({ title: "Third" }), name: "third" }])).rejects.toThrow(
      /SiteCustomization third: another SiteCustomization of this stack already manages site \S+, and a site has one/,
    );
    expect(s.env.emu.log.writes()).toBe(0);
  });

  it("deleting it sends nothing and leaves the site's settings as they are", async () => {
    const current = structuredClone(settings());
    s.env.emu.log.reset();
    expect(stepNames(await s.p.up([site()]))).toEqual(["same site", "delete again"]);
    expect(s.env.emu.log.count()).toBe(0);
    expect(settings()).toEqual(current);
  });
});

describe("SiteSpaceCustomization", () => {
  const s = programSuite();
  const space = { kind: "Space", name: "guides", args: { title: "Guides" } };
  const section = { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: ref("guides.id") } };
  // The section's own site space is the one overridden.
  const overrides = (args: Json) => ({ kind: "SiteSpaceCustomization", name: "fr-branding", args: { siteId: ref("site.id"), siteSpaceId: ref("section.siteSpaceId"), ...args } });
  const base = [space, site(), section];
  const stored = () => s.env.emu.store.siteSpaceCustomizations.get(s.p.resource("section").outputs.siteSpaceId as string)?.overrides;

  it("stops a bad override at preview, naming it, with no request but the first resource's question about the organization", async () => {
    await expect(s.p.preview([...base, overrides({ styling: { dangerColor: { light: "#12", dark: "#000" } } })])).rejects.toThrow("styling.dangerColor.light must be a hex colour");
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates the declared overrides with one GET and one PATCH, and sends nothing when nothing changed", async () => {
    await s.p.up(base);
    s.env.emu.log.reset();
    await s.p.up([...base, overrides({ title: "Docs FR", styling: { theme: "muted", primaryColor: { light: "#0055a4", dark: "#6f9fff" } } })]);
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`GET ${OVERRIDE}`]: 1, [`PATCH ${OVERRIDE}`]: 1 });
    expect(stored()).toEqual({ title: "Docs FR", styling: { theme: "muted", primaryColor: { light: "#0055a4", dark: "#6f9fff" } } });

    s.env.emu.log.reset();
    await s.p.up();
    expect(s.env.emu.log.count()).toBe(0);
  });

  it("a changed override is PATCHed alone; one removed from the program is cleared (null), the site's value showing again", async () => {
    stored()!.footer = { copyright: "app edit" }; // not declared
    s.env.emu.log.reset();
    await s.p.up([...base, overrides({ styling: { theme: "bold", primaryColor: { light: "#0055a4", dark: "#6f9fff" } } })]);
    expect(s.env.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1, [`PATCH ${OVERRIDE}`]: 1 });
    expect(stored()).toEqual({ styling: { theme: "bold", primaryColor: { light: "#0055a4", dark: "#6f9fff" } }, footer: { copyright: "app edit" } });
  });

  it("refresh shows an app edit of a declared override as drift", async () => {
    stored()!.styling = { theme: "clean", primaryColor: { light: "#0055a4", dark: "#6f9fff" } };
    const steps = await s.p.refresh();
    expect(steps.find((x) => x.name === "fr-branding")).toMatchObject({ op: "refresh", changed: ["styling"] });
    expect(stepNames(await s.p.up())).toContain("update fr-branding");
    expect(stored()!.styling).toEqual({ theme: "bold", primaryColor: { light: "#0055a4", dark: "#6f9fff" } });
  });

  it("a forced replacement (`up --replace`) clears the old overrides first, so the new ones stay", async () => {
    s.env.emu.log.reset();
    await s.p.replace("fr-branding");
    // The old one's clearing PATCH, then the new one's GET and PATCH: created first, the clearing came last.
    expect(s.env.emu.log.entries.map((e) => e.method)).toEqual(["PATCH", "GET", "PATCH"]);
    expect(stored()!.styling).toEqual({ theme: "bold", primaryColor: { light: "#0055a4", dark: "#6f9fff" } });
    expect((await s.p.refresh()).find((x) => x.name === "fr-branding")?.op).toBe("same");
  });

  it("deleting it clears the declared overrides alone, leaving one made in the app", async () => {
    s.env.emu.log.reset();
    expect(stepNames(await s.p.up(base))).toContain("delete fr-branding");
    expect(s.env.emu.log.byRoute()).toEqual({ [`PATCH ${OVERRIDE}`]: 1 });
    expect(stored()).toEqual({ footer: { copyright: "app edit" } });
    await s.p.destroy();
  });
});
