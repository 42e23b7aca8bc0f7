/**
 * Where a section sits (the site's top level or a section group) has one source of truth, and a move
 * made in the GitBook app shows at refresh and is undone by the next `up`.
 *
 * - A section's group is declared by its SiteSection `groupId` or by one SiteSectionGroup's `sections`,
 *   never both, never two groups: a program doing so fails its preview, naming both resources, before
 *   any request (issue 20, item 2).
 * - A SiteStructureOrder lists items in containers: an item the app moved to another container is drift
 *   on the order's list, and the next `up` puts it back where the order lists it (issue 20, item 4).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
// A program that throws takes the CLI some 40 s to end on this machine (DocsSite's own checks too).
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

describeDeployments("a section's group declared in two places", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const base = (d: Deployment): Decl[] => [
    { kind: "Site", name: "site", args: { title: "Placement Docs" } },
    { kind: "SiteSectionGroup", name: "groupB", args: { siteId: ref("site.id"), title: "B" } },
  ];

  it("by the section's groupId and by a group's sections: preview fails naming both, before any request", async () => {
    const decls: Decl[] = [
      ...base(d),
      { kind: "SiteSection", name: "sec", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0], groupId: ref("groupB.id") } },
      { kind: "SiteSectionGroup", name: "groupA", args: { siteId: ref("site.id"), title: "A", sections: [ref("sec.id")] } },
    ];
    d.emu.log.reset();
    const r = await d.run("preview", decls);
    expect(r.error).toMatch(/SiteSection "sec"/);
    expect(r.error).toMatch(/SiteSectionGroup "groupA"/);
    expect(r.error).toMatch(/groupId/);
    expect(d.emu.log.count()).toBe(0);
    const up = await d.run("up", decls);
    expect(up.error).toMatch(/SiteSectionGroup "groupA"/);
    // Even without a preview first, the resources declared before the group are not created.
    expect(d.emu.log.count()).toBe(0);
  }, 240_000);

  it("by two groups' sections: preview fails naming both groups, before any request", async () => {
    const decls: Decl[] = [
      ...base(d),
      { kind: "SiteSection", name: "sec", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0] } },
      { kind: "SiteSectionGroup", name: "groupA", args: { siteId: ref("site.id"), title: "A", sections: [ref("sec.id")] } },
      { kind: "SiteSectionGroup", name: "groupC", args: { siteId: ref("site.id"), title: "C", sections: [ref("sec.id")] } },
    ];
    d.emu.log.reset();
    const r = await d.run("preview", decls);
    expect(r.error).toMatch(/SiteSectionGroup "groupA"/);
    expect(r.error).toMatch(/SiteSectionGroup "groupC"/);
    expect(d.emu.log.count()).toBe(0);
  }, 120_000);

  it("by a section's groupId and an order listing it elsewhere: preview fails naming both, before any request", async () => {
    const decls: Decl[] = [
      ...base(d),
      { kind: "SiteSection", name: "sec", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[0], groupId: ref("groupB.id") } },
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: [ref("groupB.id"), ref("sec.id")] } },
    ];
    d.emu.log.reset();
    const r = await d.run("preview", decls);
    expect(r.error).toMatch(/SiteStructureOrder "order": its items put SiteSection "sec" in the site's top level, but SiteSection "sec"'s groupId puts it in SiteSectionGroup "groupB"/);
    expect(d.emu.log.count()).toBe(0);
  }, 120_000);
});

/** The site's navigation as titles: a group as `{ title: [its items] }`. */
function navigation(d: Deployment, siteId: string, groupId?: string): unknown[] {
  return d.emu.store.childrenOf(siteId, groupId).map((n) => (n.type === "site-section-group" ? { [n.record.title]: navigation(d, siteId, n.record.id) } : n.record.title));
}

/** Moves a section as dragging it in the app does (undefined: to the top level). */
function drag(d: Deployment, sectionId: string, groupId: string | undefined): void {
  d.emu.store.setSectionGroup(d.emu.store.sections.get(sectionId)!, groupId);
}

/**
 * How a program declares the navigation `Alpha, Group [Gamma], Beta`, and how to find each resource in
 * state: by program name, or by kind and title for a component's children, whatever it names them.
 */
interface Form {
  label: string;
  program(d: Deployment): Decl[];
  /** The resource of that kind (and title) in state. */
  find(d: Deployment, kind: string, title?: string): ReturnType<Deployment["resource"]>;
}

const plain: Form = {
  label: "declared resource by resource",
  program: (d) => {
    const s = d.emu.seeded.spaceIds;
    return [
      { kind: "Site", name: "site", args: { title: "Placement Docs" } },
      { kind: "SiteSection", name: "alpha", args: { siteId: ref("site.id"), spaceId: s[0], title: "Alpha" } },
      { kind: "SiteSectionGroup", name: "group", args: { siteId: ref("site.id"), title: "Group" } },
      { kind: "SiteSection", name: "gamma", args: { siteId: ref("site.id"), spaceId: s[2], title: "Gamma", groupId: ref("group.id") } },
      { kind: "SiteSection", name: "beta", args: { siteId: ref("site.id"), spaceId: s[1], title: "Beta" } },
      {
        kind: "SiteStructureOrder",
        name: "order",
        args: { siteId: ref("site.id"), items: [ref("alpha.id"), ref("group.id"), ref("beta.id")], groups: [{ groupId: ref("group.id"), items: [ref("gamma.id")] }] },
      },
    ];
  },
  find: (d, kind, title) => {
    const name = ({ Site: "site", SiteSectionGroup: "group", SiteStructureOrder: "order" } as Record<string, string>)[kind] ?? title!.toLowerCase();
    const found = d.state().resources.find((r) => r.name === name && !r.urn.includes("DocsSite$"));
    if (!found) throw new Error(`no ${name} in state`);
    return found;
  },
};

const docsSite: Form = {
  label: "declared as a DocsSite",
  program: (d) => {
    const s = d.emu.seeded.spaceIds;
    const sections = [
      { key: "alpha", spaceId: s[0], title: "Alpha" },
      { type: "group", key: "grp", title: "Group", sections: [{ key: "gamma", spaceId: s[2], title: "Gamma" }] },
      { key: "beta", spaceId: s[1], title: "Beta" },
    ];
    return [{ kind: "DocsSite", name: "docs", args: { site: { title: "Placement Docs" }, sections } }];
  },
  find: (d, kind, title) => {
    // The component's children: their type in the URN follows the component's.
    const found = d.state().resources.find((r) => r.urn.includes("DocsSite$") && r.type.endsWith(`:${kind}`) && (title === undefined || r.outputs.title === title));
    if (!found) throw new Error(`no ${kind} ${title ?? ""} in state`);
    return found;
  },
};

const DECLARED = ["Alpha", { Group: ["Gamma"] }, "Beta"];

const FORMS = [plain, docsSite];

/**
 * Both forms side by side in one stack, moved in the app at once: each step is one refresh and one
 * `up --diff`, whose steps must be exactly the forms' updates, each showing the field; the next step's
 * exact list proves the one before left nothing to do, and a final preview proves it of the last.
 */
describeDeployments(`a section moved to another container in the app, ${FORMS.map((f) => f.label).join(" and ")}`, () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
    expect((await d.run("up", FORMS.flatMap((f) => f.program(d)))).error).toBeUndefined();
  }, 240_000);
  afterAll(async () => d?.close());
  const id = (form: Form, kind: string, title?: string) => form.find(d, kind, title).id!;

  /**
   * After the app moves: refresh shows each on its form's `shownOn` `field`, up restores them with exactly
   * `requests` per form, updating nothing but those and the resources of kinds `alsoShows`.
   */
  async function expectRestored(shownOn: (f: Form) => ReturnType<Deployment["resource"]>, field: string, requests: Record<string, number>, alsoShows: string[] = []): Promise<void> {
    const shown = FORMS.map((f) => shownOn(f).name);
    const before = shown.map((n) => d.resource(n).outputs[field]);
    expect((await d.run("refresh")).error).toBeUndefined();
    shown.forEach((n, i) => expect(d.resource(n).outputs[field], `${n}.${field} after refresh`).not.toEqual(before[i]));
    d.emu.log.reset();
    const r = await d.run("up", undefined, { flags: ["--diff"] });
    expect(r.error).toBeUndefined();
    // `~ items` when the list changed, `+ groupId` when refresh found the field gone.
    expect(r.stdout).toMatch(new RegExp(`[~+-] ${field}\\b`));
    const updated = r.steps.filter((s) => s.op !== "same" && s.type !== "pulumi:pulumi:Stack" && !s.type.endsWith(":DocsSite"));
    const also = FORMS.flatMap((f) => alsoShows.map((kind) => f.find(d, kind).name));
    expect(updated.map((s) => `${s.op} ${s.name}`).sort()).toEqual([...shown, ...also].map((n) => `update ${n}`).sort());
    for (const form of FORMS) expect(navigation(d, id(form, "Site")), form.label).toEqual(DECLARED);
    expect(d.emu.log.byRoute()).toEqual(Object.fromEntries(Object.entries(requests).map(([k, n]) => [k, n * FORMS.length])));
  }

  it("a top-level section dragged into a group: refresh shows it on the order's items, and up puts it back", async () => {
    for (const form of FORMS) {
      expect(navigation(d, id(form, "Site")), form.label).toEqual(DECLARED);
      drag(d, id(form, "SiteSection", "Beta"), id(form, "SiteSectionGroup"));
      expect(navigation(d, id(form, "Site")), form.label).toEqual(["Alpha", { Group: ["Gamma", "Beta"] }]);
    }
    // One read of the structure, one move back to the top level (last there, where it belongs).
    await expectRestored((f) => f.find(d, "SiteStructureOrder"), "items", {
      "GET /v1/orgs/:org/sites/:site/structure": 1,
      "PATCH /v1/orgs/:org/sites/:site/sections/:section": 1,
    });
  }, 240_000);

  it("a grouped section dragged to the top level: refresh shows it on the section's groupId, and up puts it back", async () => {
    for (const form of FORMS) {
      drag(d, id(form, "SiteSection", "Gamma"), undefined);
      expect(navigation(d, id(form, "Site")), form.label).toEqual(["Alpha", { Group: [] }, "Beta", "Gamma"]);
    }
    // The section's own move back (last in the group, its only section), then the order's one read.
    await expectRestored((f) => f.find(d, "SiteSection", "Gamma"), "groupId", {
      "PATCH /v1/orgs/:org/sites/:site/sections/:section": 1,
      "GET /v1/orgs/:org/sites/:site/structure": 1,
      // The order lists it in the group: its list there shows the move too.
    }, ["SiteStructureOrder"]);
  }, 240_000);

  it("then nothing to do", async () => {
    expect((await d.run("preview", undefined, { flags: ["--expect-no-changes"] })).error).toBeUndefined();
  }, 240_000);
});
