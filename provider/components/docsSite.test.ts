/**
 * DocsSite under pulumi.runtime.setMocks: which resources it registers, with which arguments, under
 * which parent and after which dependencies, and how a wrong topology fails before anything is
 * registered. Nothing here talks to an API; the provider side is covered by the resources' own tests
 * and by test/examples (the whole example through the dynamic-provider host).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DocsSite, validateTopology, type DocsSiteTopology } from "./docsSite";
import type { DocsSiteSection } from "./topology";

interface Registration {
  type: string;
  name: string;
  urn: string;
  parent: string;
  inputs: Record<string, any>;
  /** What plans show beside the reference IDs (framework/shown.ts): kept apart from the inputs, checked on its own. */
  names?: Record<string, any>;
  /** Input name -> URNs it depends on. */
  propertyDeps: Record<string, string[]>;
  /** Outputs the engine keeps encrypted (additionalSecretOutputs). */
  secretOutputs: string[];
  /** The names the resource is also known by (its aliases, each with the same parent and type). */
  aliases: string[];
  /** The `retainOnDelete` resource option. */
  retainOnDelete: boolean;
}

const registered: Registration[] = [];
/** Resource name -> URNs of its dependencies (`dependsOn` and the inputs' resources). */
const publicationDeps = new Map<string, string[]>();

const kind = (type: string) => type.replace(/^pulumi-nodejs:dynamic\/gitbook:/, "");
const byName = (name: string) => {
  const r = registered.find((x) => x.name === name);
  if (!r) throw new Error(`nothing registered as ${name}; registered: ${registered.map((x) => x.name).join(", ")}`);
  return r;
};

function value<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        const state: Record<string, unknown> = { ...args.inputs };
        if (args.type.endsWith(":SiteSection")) state.siteSpaceId = `${args.name}#own-site-space`;
        if (args.type.endsWith(":ShareLink")) state.url = `https://docs.example/${args.name}?share=k3y`;
        if (args.type.endsWith(":Site")) state.urls = { published: `https://docs.example/${args.name}` };
        if (args.type.endsWith(":SitePublication")) state.publishedUrl = `https://live.example/${args.name}`;
        return { id: args.custom ? `${args.name}#id` : undefined, state };
      },
      call: () => ({}),
    },
    "proj",
    "stack",
    false,
  );
  // The mock monitor does not pass parents or dependencies to `newResource`; record them from the request.
  const monitor = pulumi.runtime.getMonitor() as any;
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: any) => {
    const propertyDeps: Record<string, string[]> = {};
    req.getPropertydependenciesMap().forEach((deps: any, prop: string) => (propertyDeps[prop] = deps.getUrnsList()));
    const inputs = req.getObject().toJavaScript();
    delete inputs.__provider;
    // Each resource's own name, which it carries for its error messages (see framework/failure.ts).
    delete inputs.__gitbookName;
    const names = inputs.names;
    delete inputs.names;
    publicationDeps.set(req.getName(), req.getDependenciesList());
    registered.push({
      type: req.getType(),
      name: req.getName(),
      urn: monitor.newUrn(req.getParent(), req.getType(), req.getName()),
      parent: req.getParent(),
      inputs,
      ...(names === undefined ? {} : { names }),
      propertyDeps,
      secretOutputs: req.getAdditionalsecretoutputsList(),
      aliases: [
        ...req.getAliasurnsList().map((u: string) => u.split("::").pop()!),
        ...req.getAliasesList().map((a: any) => a.getSpec()?.getName()).filter((n: unknown) => typeof n === "string"),
      ],
      retainOnDelete: req.getRetainondelete() === true,
    });
    return original(req, callback);
  };
});

beforeEach(() => {
  registered.length = 0;
});

const topology = (): DocsSiteTopology => ({
  site: { title: "Acme Docs", visibility: "share-link" },
  sections: [
    { key: "start", spaceId: "spc_start", title: "Getting started", path: "start", default: true },
    {
      key: "guides",
      spaceId: "spc_guides",
      icon: "compass",
      siteSpaces: [
        { key: "ts", spaceId: "spc_ts", path: "typescript", condition: 'visitor.claims.unsigned.lang == "ts"', default: true },
        { key: "py", spaceId: "spc_py", path: "python", hidden: true, draft: true },
      ],
    },
  ],
  shareLinks: [{ key: "reviewers", name: "Reviewers" }, { key: "legal", name: "Legal team", active: false }],
});

/** Constructs the component and waits until every child is registered and every output resolved. */
async function build(name: string, t: DocsSiteTopology) {
  const c = new DocsSite(name, t);
  await Promise.all([
    value(c.sectionIds),
    value(c.siteSpaceIds),
    value(c.shareLinkUrls),
    value(c.siteUrls),
    value(c.urn),
    // Registered once the IDs it lists resolve: awaited, so it does not land in the next test's list.
    ...(c.order ? [value(c.order.urn)] : []),
    ...(c.visitorSchema ? [value(c.visitorSchema.urn)] : []),
    ...(c.publication ? [value(c.publication.urn)] : []),
    ...(c.redirects ? [value(c.redirects.urn)] : []),
    ...(c.access ? [value(c.access.urn)] : []),
    ...(c.visitorAuth ? [value(c.visitorAuth.urn)] : []),
    ...(c.customHostname ? [value(c.customHostname.urn)] : []),
    ...(c.gitSync ? [value(c.gitSync.urn)] : []),
  ]);
  return c;
}

describe("DocsSite registration", () => {
  it("registers the site, each section, each site space and each share link under the component, named by key", async () => {
    await build("docs", topology());
    const component = byName("docs");
    expect(component.type).toBe("gitbook:components:DocsSite");
    const children = registered.filter((r) => r !== component).map((r) => `${kind(r.type)} ${r.name}`);
    expect(children.sort()).toEqual(
      [
        "Site docs",
        "SiteSection docs/start",
        "SiteSection docs/guides",
        "SiteSpace docs/guides/ts",
        "SiteSpace docs/guides/py",
        "ShareLink docs/reviewers",
        "ShareLink docs/legal",
        "SiteStructureOrder docs/order",
      ].sort(),
    );
    for (const r of registered.filter((x) => x !== component)) expect(r.parent, r.name).toBe(component.urn);
  });

  it("passes each entry's fields to its resource, and leaves unset fields out", async () => {
    await build("docs", topology());
    expect(byName("docs").inputs).toEqual({});
    expect(byName("docs").type).not.toBe(byName("docs/start").type);
    const site = registered.find((r) => kind(r.type) === "Site")!;
    expect(site.inputs).toMatchObject({ title: "Acme Docs", visibility: "share-link" });
    expect(byName("docs/start").inputs).toEqual({ siteId: "docs#id", spaceId: "spc_start", title: "Getting started", path: "start", default: true });
    expect(byName("docs/guides").inputs).toEqual({ siteId: "docs#id", spaceId: "spc_guides", icon: "compass" });
    expect(byName("docs/guides/ts").inputs).toEqual({
      siteId: "docs#id",
      sectionId: "docs/guides#id",
      spaceId: "spc_ts",
      path: "typescript",
      condition: 'visitor.claims.unsigned.lang == "ts"',
      default: true,
    });
    expect(byName("docs/guides/py").inputs).toEqual({ siteId: "docs#id", sectionId: "docs/guides#id", spaceId: "spc_py", path: "python", hidden: true, draft: true });
    expect(byName("docs/reviewers").inputs).toEqual({ siteId: "docs#id", name: "Reviewers" });
    expect(byName("docs/legal").inputs).toEqual({ siteId: "docs#id", name: "Legal team", active: false });
  });

  it("passes an adoptId on any entry to its resource, so an existing site can be declared as a DocsSite", async () => {
    const t = topology();
    t.site.adoptId = "site_1";
    t.sections[1]!.adoptId = "sitesc_2";
    (t.sections[1] as DocsSiteSection).siteSpaces![0]!.adoptId = "sitesp_3";
    t.shareLinks![1]!.adoptId = "shl_4";
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(registered.find((r) => kind(r.type) === "Site")!.inputs.adoptId).toBe("site_1");
    expect(byName("docs/guides").inputs.adoptId).toBe("sitesc_2");
    expect(byName("docs/guides/ts").inputs.adoptId).toBe("sitesp_3");
    expect(byName("docs/legal").inputs.adoptId).toBe("shl_4");
    for (const name of ["docs/start", "docs/guides/py", "docs/reviewers"]) expect(byName(name).inputs.adoptId, name).toBeUndefined();
  });

  it("registers the redirects as one SiteRedirects child, applied after the publication", async () => {
    const t = topology();
    t.site.published = true;
    t.redirects = [{ source: "/old", destination: { path: "/start" }, permanent: true }];
    const c = await build("docs", t);
    const redirects = byName("docs/redirects");
    expect(kind(redirects.type)).toBe("SiteRedirects");
    expect(redirects.inputs.rules).toEqual([{ source: "/old", destination: { path: "/start" }, permanent: true }]);
    expect(redirects.parent).toBe(byName("docs").urn);
    expect(publicationDeps.get("docs/redirects")).toContain(byName("docs/publication").urn);
    expect(c.redirects).toBeDefined();
    expect(redirects.inputs.adoptId).toBeUndefined();
  });

  it("adopts the site's existing redirect rules when given redirectsAdoptId, and only with redirects", async () => {
    const t = topology();
    t.redirects = [{ source: "/old", destination: { url: "https://x.test" } }];
    t.redirectsAdoptId = "site_1";
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(byName("docs/redirects").inputs.adoptId).toBe("site_1");
    expect(validateTopology({ ...topology(), redirectsAdoptId: "site_1" }).map((p) => p.message)).toEqual(["redirectsAdoptId needs redirects: it adopts the rules redirects declares"]);
  });

  it("passes redirectOldPath to sections and site spaces, the site-wide redirectOldPaths to those that do not set their own, and refuses it beside redirects", async () => {
    const t = topology();
    t.redirectOldPaths = true;
    (t.sections[1] as DocsSiteSection).siteSpaces![1]!.redirectOldPath = false;
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(byName("docs/start").inputs.redirectOldPath).toBe(true);
    expect(byName("docs/guides/ts").inputs.redirectOldPath).toBe(true);
    expect(byName("docs/guides/py").inputs.redirectOldPath).toBe(false);
    const both = topology();
    (both.sections[0] as DocsSiteSection).redirectOldPath = true;
    both.redirects = [{ source: "/old", destination: { url: "https://x.test" } }];
    expect(() => new DocsSite("docs-both", both)).toThrow(/SiteRedirects "docs-both\/redirects": SiteSection "docs-both\/start" sets redirectOldPath/);
    // A refused run registers nothing (framework/program.ts): the next test's must start in a run of its own.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("makes sections depend on the site and site spaces on their section", async () => {
    await build("docs", topology());
    const site = registered.find((r) => kind(r.type) === "Site")!;
    expect(byName("docs/guides").propertyDeps.siteId).toEqual([site.urn]);
    expect(byName("docs/guides/ts").propertyDeps.sectionId).toEqual([byName("docs/guides").urn]);
    expect(byName("docs/guides/ts").propertyDeps.siteId).toEqual([site.urn]);
    expect(byName("docs/legal").propertyDeps.siteId).toEqual([site.urn]);
  });

  it("gives the same names whatever the order of sections and site spaces, so reordering replaces nothing", async () => {
    await build("docs", topology());
    const before = registered.map((r) => r.urn).sort();
    registered.length = 0;
    const t = topology();
    t.sections.reverse();
    (t.sections[0] as DocsSiteSection).siteSpaces!.reverse();
    t.shareLinks!.reverse();
    await build("docs", t);
    expect(registered.map((r) => r.urn).sort()).toEqual(before);
  });

  it("names share links by key, not by name, so renaming a link keeps its resource (an update, not a new URL)", async () => {
    await build("docs", topology());
    const before = byName("docs/reviewers").urn;
    registered.length = 0;
    const t = topology();
    t.shareLinks![0]!.name = "Review board";
    await build("docs", t);
    expect(byName("docs/reviewers").urn).toBe(before);
    expect(byName("docs/reviewers").inputs).toEqual({ siteId: "docs#id", name: "Review board" });
    expect(registered.some((r) => r.name === "docs/review-board")).toBe(false);
  });

  it("passes the site's organizationId to every child, so they all live where the site does", async () => {
    const t = topology();
    t.site.organizationId = "org_other";
    await build("docs", t);
    for (const r of registered.filter((x) => x.name !== "docs" || kind(x.type) === "Site")) expect(r.inputs.organizationId, `${r.name} ${JSON.stringify(r.inputs)}`).toBe("org_other");
  });

  it("exposes section ids, site space ids (own and declared) and share link URLs by key, the URLs as a secret", async () => {
    const c = await build("docs", topology());
    expect(await value(c.siteId)).toBe("docs#id");
    expect(await value(c.siteUrls)).toEqual({ published: "https://docs.example/docs" });
    expect(await value(c.sectionIds)).toEqual({ start: "docs/start#id", guides: "docs/guides#id" });
    expect(await value(c.siteSpaceIds)).toEqual({
      start: "docs/start#own-site-space",
      guides: "docs/guides#own-site-space",
      "guides/ts": "docs/guides/ts#id",
      "guides/py": "docs/guides/py#id",
    });
    expect(await value(c.shareLinkUrls)).toEqual({
      reviewers: "https://docs.example/docs/reviewers?share=k3y",
      legal: "https://docs.example/docs/legal?share=k3y",
    });
    expect(await pulumi.isSecret(c.shareLinkUrls)).toBe(true);
    expect(Object.keys(c.sections)).toEqual(["start", "guides"]);
    expect(Object.keys(c.siteSpaces)).toEqual(["guides/ts", "guides/py"]);
  });

  it("accepts values known only at deployment time (Outputs), leaving their check to the resource", async () => {
    const t = topology();
    (t.sections[1] as DocsSiteSection).spaceId = pulumi.output("spc_guides");
    (t.sections[1] as DocsSiteSection).siteSpaces![0]!.path = pulumi.output("x".repeat(200));
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(byName("docs/guides").inputs.spaceId).toBe("spc_guides");
  });
});

describe("DocsSite topology mistakes", () => {
  const fails = (mutate: (t: any) => void) => {
    const t: any = topology();
    mutate(t);
    let error: Error | undefined;
    try {
      new DocsSite("bad", t);
    } catch (e) {
      error = e as Error;
    }
    // Nothing may be registered for a topology that fails.
    expect(registered).toEqual([]);
    expect(error, "construction should fail").toBeDefined();
    return error!.message;
  };

  it("names the path and the limit of a field that breaks a resource's limit", () => {
    const message = fails((t) => {
      t.sections.push({ key: "api", spaceId: "spc_api", siteSpaces: [{ key: "v2", spaceId: "spc_v2", path: "p".repeat(101) }] });
    });
    expect(message).toContain("sections[2].siteSpaces[0].path must be 1 to 100 characters");
    expect(message).toMatch(/^DocsSite "bad": /);
  });

  it("refuses a redirect loop, naming the rule", () => {
    const message = fails((t) => {
      t.redirects = [{ source: "/a", destination: { path: "/b" } }, { source: "/b", destination: { path: "/a" } }];
    });
    expect(message).toContain("redirects[0].destination forms a loop, /a (rules[0]) → /b (rules[1]) → /a (rules[0])");
  });

  it("reports every mistake at once", () => {
    const message = fails((t) => {
      t.sections[0].title = "x";
      t.site.title = "";
      delete t.sections[1].spaceId;
    });
    expect(message).toContain("sections[0].title must be 2 to 128 characters");
    expect(message).toContain("site.title must be 2 to 128 characters");
    expect(message).toContain("sections[1].spaceId is required");
  });

  it("allows at most one default section and one default site space per section", () => {
    expect(fails((t) => (t.sections[1].default = true))).toContain("sections[1].default is true but sections[0] is already the default section");
    registered.length = 0;
    expect(fails((t) => (t.sections[1].siteSpaces[1].default = true))).toContain(
      "sections[1].siteSpaces[1].default is true but sections[1].siteSpaces[0] is already the default of this section",
    );
  });

  it("refuses repeated keys, which would give two resources one name", () => {
    expect(fails((t) => (t.sections[1].key = "start"))).toContain('sections[1].key "start" is already the key of sections[0]');
    registered.length = 0;
    expect(fails((t) => (t.sections[1].siteSpaces[1].key = "ts"))).toContain('sections[1].siteSpaces[1].key "ts" is already the key of sections[1].siteSpaces[0]');
    registered.length = 0;
    expect(fails((t) => t.shareLinks.push({ key: "reviewers", name: "Reviewers again" }))).toContain('shareLinks[2].key "reviewers" is already the key of shareLinks[0]');
  });

  it("keeps positions right around an entry that is not an object, and reports a missing key once", () => {
    const message = fails((t) => {
      t.sections.unshift("guides");
      t.sections.push({ key: "start", spaceId: "spc_other" }, { spaceId: "spc_a" }, { spaceId: "spc_b" });
    });
    expect(message).toContain("sections[0] ");
    expect(message).toContain('sections[3].key "start" is already the key of sections[1]');
    expect(message).toContain("sections[4].key is required");
    expect(message).toContain("sections[5].key is required");
    expect(message).not.toContain('"undefined"');
  });

  it("refuses a key that could not be part of a resource name", () => {
    expect(fails((t) => (t.sections[0].key = "a/b"))).toContain("sections[0].key must be 1 to 64 letters, digits");
  });

  it("refuses a section showing the same space twice", () => {
    expect(fails((t) => (t.sections[1].siteSpaces[1].spaceId = "spc_guides"))).toContain(
      "sections[1].siteSpaces[1].spaceId shows the same space as sections[1].spaceId (the section's own space)",
    );
  });

  it("refuses share links on a site they could not open, or whose visibility is not declared", () => {
    expect(fails((t) => (t.site.visibility = "public"))).toContain("shareLinks open only a site whose visibility is share-link, but site.visibility is public");
    registered.length = 0;
    expect(fails((t) => delete t.site.visibility)).toContain("shareLinks open only a site whose visibility is share-link, but site.visibility is not set (a new site is public)");
  });

  it("requires a share link key, giving the key a link made without one by 0.1.0 had", () => {
    expect(fails((t) => delete t.shareLinks[0].key)).toContain(
      'shareLinks[0].key is required: it names the share link\'s resource, so renaming the link updates it instead of replacing it (and its URL); to keep a link created without a key by pulumi-gitbook 0.1.0, set key: "reviewers"',
    );
  });

  it("names a misspelt field instead of ignoring it", () => {
    expect(fails((t) => (t.sections[1].sitespaces = []))).toContain("sections[1] has unknown field sitespaces");
  });

  it("needs at least one section, and a default that is a plain boolean", () => {
    expect(fails((t) => (t.sections = []))).toContain("sections must list at least one section");
    registered.length = 0;
    expect(fails((t) => (t.sections[0].default = pulumi.output(true)))).toContain("sections[0].default must be a plain boolean");
  });
});

describe("DocsSite navigation: groups, external links, created spaces, order and the visitor schema", () => {
  const visitorSchema = {
    type: "object" as const,
    properties: {
      plan: { type: "string" as const, description: "The visitor's plan", enum: ["free", "pro"] },
      unsigned: { type: "object" as const, description: "Unsigned claims of the site visitor." as const, properties: { lang: { type: "string" as const, description: "Preferred language" } }, additionalProperties: false as const },
    },
    additionalProperties: false as const,
  };
  const navigation = (): DocsSiteTopology => ({
    site: { title: "Acme Docs" },
    sections: [
      { key: "start", space: { title: "Getting started", emoji: "🚀" }, default: true },
      {
        type: "group",
        key: "products",
        title: "Products",
        icon: "box",
        sections: [
          { key: "api", spaceId: "spc_api", condition: 'visitor.claims.plan == "pro"' },
          { type: "link", key: "status", title: "Status", url: "https://status.acme.test" },
        ],
      },
      { type: "link", key: "blog", title: "Blog", url: "https://blog.acme.test", condition: 'visitor.claims.unsigned.lang == "en"' },
      { key: "guides", spaceId: "spc_guides", siteSpaces: [{ key: "py", space: { title: "Python guide" } }, { key: "ts", spaceId: "spc_ts" }] },
    ],
    visitorSchema,
  });

  it("registers a group, links, the spaces it creates, the visitor schema and the order, named by key", async () => {
    const c = await build("docs", navigation());
    await Promise.all([value(c.groups.products!.urn), value(c.links.blog!.urn), value(c.spaces.start!.urn)]);
    const children = registered.filter((r) => r.name !== "docs" || kind(r.type) === "Site").map((r) => `${kind(r.type)} ${r.name}`);
    expect(children.sort()).toEqual(
      [
        "Site docs",
        "Space docs/spaces/start",
        "Space docs/spaces/py",
        "SiteSection docs/start",
        "SiteSectionGroup docs/products",
        "SiteSection docs/api",
        "SiteExternalLink docs/status",
        "SiteExternalLink docs/blog",
        "SiteSection docs/guides",
        "SiteSpace docs/guides/py",
        "SiteSpace docs/guides/ts",
        "SiteAdaptiveSchema docs/visitor-schema",
        "SiteStructureOrder docs/order",
      ].sort(),
    );
    expect(byName("docs/spaces/start").inputs).toEqual({ title: "Getting started", emoji: "🚀" });
    expect(byName("docs/start").inputs.spaceId).toBe("docs/spaces/start#id");
    expect(byName("docs/guides/py").inputs.spaceId).toBe("docs/spaces/py#id");
    // Known too by the names earlier versions gave them (by place), so upgrading replaces nothing.
    expect(byName("docs/spaces/start").aliases).toEqual(["docs/start/space"]);
    // A site space's, also under every other section it may have stood in before an upgrade (see below).
    expect(byName("docs/spaces/py").aliases).toEqual(["docs/guides/py/space", "docs/start/py/space", "docs/api/py/space"]);
    expect(byName("docs/api").inputs.groupId).toBe("docs/products#id");
    expect(byName("docs/status").inputs).toMatchObject({ groupId: "docs/products#id", title: "Status", url: "https://status.acme.test" });
    expect(byName("docs/blog").inputs.groupId).toBeUndefined();
    // GitBook takes links only in a site made of sections: a top-level link waits for the first section.
    expect(publicationDeps.get("docs/blog")).toContain(byName("docs/start").urn);
    expect(byName("docs/visitor-schema").inputs).toEqual({ siteId: "docs#id", jsonSchema: visitorSchema });
  });

  it("orders the navigation as declared: top level, inside the group, and each section's own space before its site spaces", async () => {
    await build("docs", navigation());
    const { navigation: shown, ...lists } = byName("docs/order").inputs;
    // What plans show beside the IDs: each item's title path (its name while it has no title), in the site's order.
    expect((shown as { id: string; path: { title?: string; name: string }[] }[]).map((e) => `${e.path.map((p) => p.title ?? p.name).join(" / ")} ${e.id}`)).toEqual([
      "docs/start docs/start#id",
      "Products docs/products#id",
      "Products / docs/api docs/api#id",
      "Products / Status docs/status#id",
      "Blog docs/blog#id",
      "docs/guides docs/guides#id",
      // The section's own site space (its siteSpaceId output), named by the space it shows: here a
      // space given by ID, so by the section's name.
      "docs/guides / docs/guides docs/guides#own-site-space",
      "docs/guides / docs/guides/py docs/guides/py#id",
      "docs/guides / docs/guides/ts docs/guides/ts#id",
    ]);
    // Every child that refers to another is named by it: the site space by its site, section and space.
    expect(byName("docs/guides/py").names).toEqual({
      siteId: { id: "docs#id", path: [{ title: "Acme Docs", name: "docs" }] },
      sectionId: { id: "docs/guides#id", path: [{ name: "docs/guides" }] },
      spaceId: { id: "docs/spaces/py#id", path: [{ title: "Python guide", name: "docs/spaces/py" }] },
    });
    expect(lists).toEqual({
      siteId: "docs#id",
      items: ["docs/start#id", "docs/products#id", "docs/blog#id", "docs/guides#id"],
      groups: [{ groupId: "docs/products#id", items: ["docs/api#id", "docs/status#id"] }],
      sections: [{ sectionId: "docs/guides#id", siteSpaces: ["docs/guides#own-site-space", "docs/guides/py#id", "docs/guides/ts#id"] }],
    });
  });

  it("reorders by changing only the order's lists: every other resource keeps its name and inputs", async () => {
    await build("docs", navigation());
    const before = new Map(registered.map((r) => [`${r.type} ${r.name}`, r.inputs]));
    registered.length = 0;
    const t = navigation();
    t.sections = [t.sections[3]!, t.sections[2]!, t.sections[1]!, t.sections[0]!];
    await build("docs", t);
    for (const r of registered) {
      if (kind(r.type) === "SiteStructureOrder") expect(r.inputs.items).toEqual(["docs/guides#id", "docs/blog#id", "docs/products#id", "docs/start#id"]);
      else expect(r.inputs, r.name).toEqual(before.get(`${r.type} ${r.name}`));
    }
  });

  it("adopts the site's existing visitor schema when given visitorSchemaAdoptId, and only with a visitorSchema", async () => {
    await build("docs", { ...navigation(), visitorSchemaAdoptId: "site_1" });
    expect(byName("docs/visitor-schema").inputs).toEqual({ siteId: "docs#id", jsonSchema: visitorSchema, adoptId: "site_1" });
    const { visitorSchema: _, ...withoutSchema } = navigation();
    expect(validateTopology({ ...withoutSchema, visitorSchemaAdoptId: "site_1" }).map((p) => p.message)).toEqual([
      "visitorSchemaAdoptId needs visitorSchema: it adopts the schema visitorSchema declares",
    ]);
  });

  it("brands the site through a SiteCustomization child declaring only the given settings, and refuses a bad one naming its path", async () => {
    const branding = { styling: { primaryColor: { light: "#346ddb", dark: "#8fb3ff" } }, favicon: { emoji: "🚀" } };
    await build("docs", { ...navigation(), branding });
    expect(byName("docs/branding").inputs).toEqual({ siteId: "docs#id", ...branding });
    expect(validateTopology({ ...navigation(), branding: { styling: { theme: "neon" } } } as never).map((p) => p.message)).toEqual([
      'branding.styling.theme must be one of "clean", "muted", "bold", "gradient"',
    ]);
  });

  it("declares access, visitor authentication and the custom hostname as children of the site, the key a secret", async () => {
    const t: DocsSiteTopology = {
      ...navigation(),
      site: { title: "Acme Docs", visibility: "visitor-auth", published: true },
      access: { teams: [{ teamId: "team_writers", role: "edit" }], users: [{ userId: "usr_ada", role: "admin" }], adoptId: "docs#id" },
      visitorAuth: { backend: "custom", fallbackURL: "https://login.acme.test/", regenerate: "2026-11" },
      customHostname: { hostname: "docs.acme.test", removeOnDestroy: true },
    };
    const c = await build("docs", t);
    const docs = registered.find((r) => kind(r.type) === "Site")!.urn;
    expect(kind(byName("docs/access").type)).toBe("AccessList");
    expect(byName("docs/access").inputs).toEqual({ siteId: "docs#id", teams: [{ teamId: "team_writers", role: "edit" }], users: [{ userId: "usr_ada", role: "admin" }], adoptId: "docs#id" });
    expect(kind(byName("docs/visitor-auth").type)).toBe("SiteVisitorAuth");
    expect(byName("docs/visitor-auth").inputs).toEqual({ siteId: "docs#id", backend: "custom", fallbackURL: "https://login.acme.test/", regenerate: "2026-11" });
    expect(byName("docs/visitor-auth").secretOutputs).toEqual(["privateKey"]);
    expect(kind(byName("docs/hostname").type)).toBe("SiteCustomHostname");
    expect(byName("docs/hostname").inputs).toEqual({ siteId: "docs#id", hostname: "docs.acme.test", removeOnDestroy: true });
    for (const n of ["docs/access", "docs/visitor-auth", "docs/hostname"]) expect(byName(n).parent).toBe(registered.find((r) => r.type === "gitbook:components:DocsSite")!.urn);
    for (const n of ["docs/access", "docs/visitor-auth", "docs/hostname"]) expect(byName(n).propertyDeps.siteId).toEqual([docs]);
    // Visitors meet the declared authentication from the moment the site goes live.
    expect(publicationDeps.get("docs/publication")).toContain(byName("docs/visitor-auth").urn);
    expect(publicationDeps.get("docs/publication")).not.toContain(byName("docs/hostname").urn);
    expect([c.access, c.visitorAuth, c.customHostname].every((r) => r !== undefined)).toBe(true);
  });

  it("checks access, visitor authentication and the custom hostname as their resources do, naming each path", () => {
    const problems = validateTopology({
      ...navigation(),
      access: { teams: [{ teamId: "team_a", role: "read" }, { teamId: "team_a", role: "edit" }], users: [{ userId: "usr_1", role: "owner" }] },
      visitorAuth: { backend: "oauth", fallbackURL: "login page", privateKey: "x" },
      customHostname: { hostname: "Docs.Acme.test", revalidate: "" },
    } as never).map((p) => p.message);
    expect(problems).toEqual([
      "access.teams[1].teamId lists the same team as teams[0].teamId; list each team once, with one role",
      expect.stringMatching(/^access\.users\[0\]\.role must be one of /),
      "visitorAuth.backend must be one of custom, integration",
      expect.stringMatching(/^visitorAuth\.fallbackURL must be an absolute URI/),
      "visitorAuth has unknown field privateKey",
      expect.stringMatching(/^customHostname\.hostname must be a lowercase DNS name of at least three labels/),
      "customHostname.revalidate must not be empty",
    ]);
    expect(validateTopology({ ...navigation(), access: {} } as never).map((p) => p.message)).toEqual(["access must declare teams, users or both (an empty list removes every grant of its kind)"]);
    expect(validateTopology({ ...navigation(), customHostname: {} } as never).map((p) => p.message)).toEqual(["customHostname.hostname is required"]);
  });

  it("publishes through a SitePublication that waits for every other child, never with the Site", async () => {
    const t = navigation();
    t.site = { ...t.site, published: true };
    const c = await build("docs", t);
    expect(registered.find((r) => kind(r.type) === "Site")!.inputs).not.toHaveProperty("published");
    expect(byName("docs/publication").inputs).toEqual({ siteId: "docs#id", published: true });
    // Every child but the spaces (which the sections showing them already wait for), the site included.
    const component = registered.find((r) => r.type === "gitbook:components:DocsSite")!;
    const children = registered.filter((r) => r.parent === component.urn && r.name !== "docs/publication" && kind(r.type) !== "Space").map((r) => r.urn);
    expect(children.length).toBe(11);
    expect(publicationDeps.get("docs/publication")?.sort()).toEqual(children.sort());
    expect(c.publication).toBeDefined();
    // Where readers find the site is the publication's fact (the Site, applied before it, does not record it).
    expect((await value(c.siteUrls)).published).toBe("https://live.example/docs/publication");
  });

  it("refuses a site.published known only at deployment time: whether to publish is decided at construction", () => {
    const t: any = navigation();
    t.site.published = pulumi.output(true);
    expect(validateTopology(t).map((p) => p.message)).toEqual([expect.stringMatching(/^site\.published must be a plain boolean/)]);
  });

  it("leaves the order to the app when asked", async () => {
    const c = await build("docs", { ...navigation(), order: "unmanaged" });
    expect(c.order).toBeUndefined();
    expect(registered.some((r) => kind(r.type) === "SiteStructureOrder")).toBe(false);
  });

  it("fails a condition naming a claim the visitor schema does not declare, naming the entry, the condition and the claim", () => {
    const t: any = navigation();
    t.sections[1].sections[0].condition = 'visitor.claims.plna == "pro"';
    const problems = validateTopology(t).map((p) => p.message);
    expect(problems).toEqual([
      'sections[1].sections[0].condition "visitor.claims.plna == \\"pro\\"" names the claim visitor.claims.plna, but visitorSchema declares no visitor.claims.plna; nearest declared claim: visitor.claims.plan',
    ]);
  });

  it("needs exactly one of spaceId and space, keys unique across groups, and a known entry type", () => {
    const t: any = navigation();
    t.sections[0].spaceId = "spc_x";
    delete t.sections[3].siteSpaces[1].spaceId;
    t.sections[1].sections[1].key = "blog";
    t.sections.push({ type: "folder", key: "x" });
    const problems = validateTopology(t).map((p) => p.message);
    expect(problems).toEqual(
      expect.arrayContaining([
        "sections[0].space cannot be declared with spaceId: give the ID of an existing space or a space to create, not both",
        "sections[3].siteSpaces[1].spaceId is required (or declare `space` to create one)",
        expect.stringMatching(/^sections\[2\]\.key "blog" is already the key of sections\[1\]\.sections\[1\]$/),
        expect.stringMatching(/^sections\[4\]\.type must be a section/),
      ]),
    );
  });

  it("keeps a created space's name wherever its entry moves: another section, or into a group", async () => {
    await build("docs", navigation());
    const names = () => registered.filter((r) => kind(r.type) === "Space").map((r) => r.name).sort();
    expect(names()).toEqual(["docs/spaces/py", "docs/spaces/start"]);
    registered.length = 0;
    const t: any = navigation();
    // The py site space moves from guides to start; start moves into the group.
    const py = t.sections[3].siteSpaces.shift();
    const start = t.sections.shift();
    start.siteSpaces = [py];
    start.default = undefined;
    t.sections[0].sections.push(start);
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(names()).toEqual(["docs/spaces/py", "docs/spaces/start"]);
    expect(byName("docs/spaces/py").inputs).toEqual({ title: "Python guide" });
    // The site space is a new pointer in its new section (GitBook cannot move one between sections); the space is the same.
    expect(byName("docs/start/py").inputs.spaceId).toBe("docs/spaces/py#id");
    // Where it stands now first; then where it may have stood when an earlier version named it by place:
    // moved in the very `up` that upgrades, it is still the same space (issue 19: no space trashed).
    expect(byName("docs/spaces/py").aliases).toEqual(["docs/start/py/space", "docs/api/py/space", "docs/guides/py/space"]);
  });

  it("guesses an earlier place only where no other entry claims it: site spaces of one key in two sections refuse nothing", async () => {
    const t: any = navigation();
    // The guides section's site space "py" creates a space; the start section gets a site space "py" of its own.
    t.sections[0].siteSpaces = [{ key: "py", space: { key: "py-start", title: "Python quickstart" } }];
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    // Each is known by its own place; neither takes the other's (claimed), nor a place both could have had.
    expect(byName("docs/spaces/py").aliases).toEqual(["docs/guides/py/space"]);
    expect(byName("docs/spaces/py-start").aliases).toEqual(["docs/start/py/space"]);
  });

  it("keeps every child of a renamed entry through formerKeys, and names a created space by space.key when given", async () => {
    const t: any = navigation();
    t.sections[3].key = "handbook";
    t.sections[3].formerKeys = ["guides"];
    t.sections[3].siteSpaces[0].formerKeys = ["python"];
    t.sections[0].space.key = "intro";
    t.sections[0].space.formerKeys = ["start"];
    t.sections[2].formerKeys = ["news"];
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(byName("docs/handbook").aliases).toEqual(["docs/guides"]);
    expect(byName("docs/handbook/py").aliases.sort()).toEqual(["docs/guides/py", "docs/guides/python", "docs/handbook/python"].sort());
    expect(byName("docs/handbook/ts").aliases).toEqual(["docs/guides/ts"]);
    expect(byName("docs/spaces/py").aliases.sort()).toEqual(
      [
        "docs/spaces/python",
        "docs/handbook/py/space",
        "docs/handbook/python/space",
        "docs/guides/py/space",
        "docs/guides/python/space",
        ...["start", "api"].flatMap((a) => [`docs/${a}/py/space`, `docs/${a}/python/space`]),
      ].sort(),
    );
    expect(byName("docs/spaces/intro").aliases).toEqual(["docs/spaces/start", "docs/start/space"]);
    expect(byName("docs/blog").aliases).toEqual(["docs/news"]);
  });

  it("passes a created space's forceDestroy to its Space, and its retainOnDelete as the Space's resource option (plain only)", async () => {
    const t: any = navigation();
    t.sections[0].space.forceDestroy = true;
    t.sections[3].siteSpaces[0].space.retainOnDelete = true;
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(byName("docs/spaces/start")).toMatchObject({ inputs: { title: "Getting started", emoji: "🚀", forceDestroy: true }, retainOnDelete: false });
    expect(byName("docs/spaces/py")).toMatchObject({ inputs: { title: "Python guide" }, retainOnDelete: true });
    expect(byName("docs/spaces/py").inputs).not.toHaveProperty("retainOnDelete");
    t.sections[3].siteSpaces[0].space.retainOnDelete = pulumi.output(true);
    expect(validateTopology(t).map((p) => p.message)).toEqual([
      "sections[3].siteSpaces[0].space.retainOnDelete must be a plain boolean (a resource option, read when the component is constructed)",
    ]);
  });

  it("refuses created spaces sharing a key, and former keys naming a current entry or claimed twice, naming both paths", () => {
    const t: any = navigation();
    t.sections[3].siteSpaces[1] = { key: "start", space: { title: "Another" } };
    t.sections[2].formerKeys = ["guides"];
    t.sections[1].formerKeys = ["old"];
    t.sections[1].sections[1].formerKeys = ["old"];
    expect(validateTopology(t).map((p) => p.message)).toEqual([
      'sections[3].siteSpaces[1].space creates a space keyed "start", as sections[0].space (named by its entry\'s key) does: created spaces are named by key across the whole topology (`<name>/spaces/<key>`), whatever their section; set a distinct `space.key` on one of them (listing the key it had, if any, in `space.formerKeys`)',
      'sections[1].sections[1].formerKeys[0] "old" is already a former key of sections[1]: one old name can lead to one entry',
      'sections[2].formerKeys[0] "guides" is the key of sections[3] now; a former key names what an entry was called before, never another entry\'s key',
    ]);
  });
});

describe("DocsSite with Git Sync", () => {
  const gitSync = { provider: "github" as const, repositoryId: 101, branch: "refs/heads/main", projectDirectory: "docs", priority: "git" as const };

  it("declares the installation and everything but the structure: no section, group, link, site space or order, published once synced", async () => {
    const t: DocsSiteTopology = { site: { title: "Acme Docs", visibility: "share-link", published: true }, sections: [], gitSync, shareLinks: [{ key: "reviewers", name: "Reviewers" }], branding: { themes: { default: "light" } } as never };
    expect(validateTopology(t)).toEqual([]);
    await build("docs", t);
    expect(registered.map((r) => kind(r.type)).sort()).toEqual(["GitSyncInstallation", "ShareLink", "Site", "SiteCustomization", "SitePublication", "gitbook:components:DocsSite"].sort());
    expect(byName("docs/git-sync").inputs).toMatchObject({ ...gitSync, siteId: "docs#id" });
    expect(byName("docs/git-sync").parent).toBe(byName("docs").urn);
    expect(publicationDeps.get("docs/publication")).toContain(byName("docs/git-sync").urn);
  });

  it("refuses navigation entries beside it, naming how many and the two ways out, and an empty navigation without it", () => {
    const t: any = topology();
    t.gitSync = gitSync;
    expect(validateTopology(t).map((p) => p.message)).toEqual([
      "sections must be empty with gitSync: the Git Sync installation syncs the site's navigation from gitbook-docs.yaml, so the 2 entries here would undo each sync and be undone by the next. Declare them in gitbook-docs.yaml and remove them here, or remove gitSync to declare the navigation here",
    ]);
    expect(validateTopology({ ...t, gitSync: { ...gitSync, branch: "main" }, sections: [] }).map((p) => p.message)).toEqual(["gitSync.branch must match refs/heads/<branch>, e.g. refs/heads/main"]);
  });
});
