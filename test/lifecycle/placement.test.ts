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
  // The other contradictions (two groups' sections; a groupId and an order's items) end the program the
  // same way: provider/resources/placement.test.ts holds their messages, under Pulumi's mocks.
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
 * `p` prefixes the program's names, so that several copies share a stack.
 */
interface Form {
  label: string;
  program(d: Deployment, p: string): Decl[];
  /** The resource of that kind (and title) in state. */
  find(d: Deployment, p: string, kind: string, title?: string): ReturnType<Deployment["resource"]>;
}

const plain: Form = {
  label: "declared resource by resource",
  program: (d, p) => {
    const s = d.emu.seeded.spaceIds;
    const r = (n: string) => ref(`${p}${n}.id`);
    return [
      { kind: "Site", name: `${p}site`, args: { title: "Placement Docs" } },
      { kind: "SiteSection", name: `${p}alpha`, args: { siteId: r("site"), spaceId: s[0], title: "Alpha" } },
      { kind: "SiteSectionGroup", name: `${p}group`, args: { siteId: r("site"), title: "Group" } },
      { kind: "SiteSection", name: `${p}gamma`, args: { siteId: r("site"), spaceId: s[2], title: "Gamma", groupId: r("group") } },
      { kind: "SiteSection", name: `${p}beta`, args: { siteId: r("site"), spaceId: s[1], title: "Beta" } },
      {
        kind: "SiteStructureOrder",
        name: `${p}order`,
        args: { siteId: r("site"), items: [r("alpha"), r("group"), r("beta")], groups: [{ groupId: r("group"), items: [r("gamma")] }] },
      },
    ];
  },
  find: (d, p, kind, title) => {
    const name = p + (({ Site: "site", SiteSectionGroup: "group", SiteStructureOrder: "order" } as Record<string, string>)[kind] ?? title!.toLowerCase());
    const found = d.state().resources.find((r) => r.name === name && !r.urn.includes("DocsSite$"));
    if (!found) throw new Error(`no ${name} in state`);
    return found;
  },
};

const docsSite: Form = {
  label: "declared as a DocsSite",
  program: (d, p) => {
    const s = d.emu.seeded.spaceIds;
    const sections = [
      { key: "alpha", spaceId: s[0], title: "Alpha" },
      { type: "group", key: "grp", title: "Group", sections: [{ key: "gamma", spaceId: s[2], title: "Gamma" }] },
      { key: "beta", spaceId: s[1], title: "Beta" },
    ];
    return [{ kind: "DocsSite", name: `${p}docs`, args: { site: { title: "Placement Docs" }, sections } }];
  },
  find: (d, p, kind, title) => {
    // The component's children, named after it: their type in the URN follows the component's.
    const mine = (name: string) => name === `${p}docs` || name.startsWith(`${p}docs/`);
    const found = d.state().resources.find((r) => r.urn.includes("DocsSite$") && mine(r.name) && r.type.endsWith(`:${kind}`) && (title === undefined || r.outputs.title === title));
    if (!found) throw new Error(`no ${kind} ${title ?? ""} in state`);
    return found;
  },
};

const DECLARED = ["Alpha", { Group: ["Gamma"] }, "Beta"];

const FORMS = [plain, docsSite];

/** A move made in the app, how refresh must show it, and what the next `up` needs to undo it (per site). */
interface Move {
  label: string;
  /** The stack's names of this move's copies start with it. */
  prefix: string;
  /** Moves it in the app, given how to find the copy's resources. */
  drag(d: Deployment, find: (kind: string, title?: string) => ReturnType<Deployment["resource"]>): void;
  /** The navigation it leaves. */
  moved: unknown[];
  /** The resource whose `field` refresh shows the move on. */
  shownOn: (find: (kind: string, title?: string) => ReturnType<Deployment["resource"]>) => ReturnType<Deployment["resource"]>;
  field: string;
  requests: Record<string, number>;
  /** Kinds whose resources the up also updates. */
  alsoShows?: string[];
}

const MOVES: Move[] = [
  {
    label: "a top-level section dragged into a group: refresh shows it on the order's items, and up puts it back",
    prefix: "in-",
    drag: (d, find) => drag(d, find("SiteSection", "Beta").id!, find("SiteSectionGroup").id!),
    moved: ["Alpha", { Group: ["Gamma", "Beta"] }],
    shownOn: (find) => find("SiteStructureOrder"),
    field: "items",
    // One read of the structure, one move back to the top level (last there, where it belongs).
    requests: { "GET /v1/orgs/:org/sites/:site/structure": 1, "PATCH /v1/orgs/:org/sites/:site/sections/:section": 1 },
  },
  {
    label: "a grouped section dragged to the top level: refresh shows it on the section's groupId, and up puts it back",
    prefix: "out-",
    drag: (d, find) => drag(d, find("SiteSection", "Gamma").id!, undefined),
    moved: ["Alpha", { Group: [] }, "Beta", "Gamma"],
    shownOn: (find) => find("SiteSection", "Gamma"),
    field: "groupId",
    // The section's own move back (last in the group, its only section), then the order's one read.
    requests: { "PATCH /v1/orgs/:org/sites/:site/sections/:section": 1, "GET /v1/orgs/:org/sites/:site/structure": 1 },
    // The order lists it in the group: its list there shows the move too.
    alsoShows: ["SiteStructureOrder"],
  },
];

/**
 * Each move on its own copy of both forms, all four sites in one stack, moved in the app at once: one
 * refresh and one `up --diff` serve every case, whose steps must be exactly the cases' updates, each
 * showing its field; a final preview proves the up left nothing to do. Each case reads its own slice:
 * the steps of its resources, the requests naming its sites.
 */
describeDeployments(`a section moved to another container in the app, ${FORMS.map((f) => f.label).join(" and ")}`, () => {
  let d: Deployment;
  let refresh: Awaited<ReturnType<Deployment["run"]>>;
  let up: Awaited<ReturnType<Deployment["run"]>>;
  /** Per move and form: the shown resource's name, its field's value before the refresh and after it, the site's navigation once dragged. */
  const seen = new Map<string, { shown: string; before: unknown; refreshed?: unknown; dragged: unknown[]; initial: unknown[] }>();
  const copies = MOVES.flatMap((move) => FORMS.map((form) => ({ move, form, key: `${move.prefix}${form.label}` })));
  const finder = (move: Move, form: Form) => (kind: string, title?: string) => form.find(d, move.prefix, kind, title);
  const siteOf = (move: Move, form: Form) => finder(move, form)("Site").id!;
  beforeAll(async () => {
    d = await startDeployment();
    expect((await d.run("up", copies.flatMap(({ move, form }) => form.program(d, move.prefix)))).error).toBeUndefined();
    for (const { move, form, key } of copies) {
      const find = finder(move, form);
      const initial = navigation(d, siteOf(move, form));
      move.drag(d, find);
      const shown = move.shownOn(find).name;
      seen.set(key, { shown, before: d.resource(shown).outputs[move.field], dragged: navigation(d, siteOf(move, form)), initial });
    }
    refresh = await d.run("refresh");
    for (const { move, key } of copies) seen.get(key)!.refreshed = d.resource(seen.get(key)!.shown).outputs[move.field];
    d.emu.log.reset();
    up = await d.run("up", undefined, { flags: ["--diff"] });
  }, 300_000);
  afterAll(async () => d?.close());

  const updatedOthers = () => up.steps.filter((s) => s.op !== "same" && s.type !== "pulumi:pulumi:Stack" && !s.type.endsWith(":DocsSite"));

  for (const move of MOVES) {
    it(move.label, () => {
      expect(refresh.error).toBeUndefined();
      expect(up.error).toBeUndefined();
      // `~ items` when the list changed, `+ groupId` when refresh found the field gone.
      expect(up.stdout).toMatch(new RegExp(`[~+-] ${move.field}\\b`));
      for (const form of FORMS) {
        const s = seen.get(`${move.prefix}${form.label}`)!;
        expect(s.initial, form.label).toEqual(DECLARED);
        expect(s.dragged, form.label).toEqual(move.moved);
        expect(s.refreshed, `${s.shown}.${move.field} after refresh`).not.toEqual(s.before);
        const find = finder(move, form);
        const expected = [s.shown, ...(move.alsoShows ?? []).map((kind) => find(kind).name)];
        expect(
          updatedOthers()
            .filter((x) => x.name.startsWith(move.prefix) && x.name.startsWith(`${move.prefix}docs`) === (form === docsSite))
            .map((x) => `${x.op} ${x.name}`)
            .sort(),
          form.label,
        ).toEqual(expected.map((n) => `update ${n}`).sort());
        expect(navigation(d, siteOf(move, form)), form.label).toEqual(DECLARED);
        const site = siteOf(move, form);
        const requests: Record<string, number> = {};
        for (const e of d.emu.log.entries.filter((x) => x.path.includes(`/sites/${site}`))) requests[`${e.method} ${e.route}`] = (requests[`${e.method} ${e.route}`] ?? 0) + 1;
        expect(requests, form.label).toEqual(move.requests);
      }
    });
  }

  it("the up updated nothing but the moves' resources", () => {
    const expected = copies.flatMap(({ move, form }) => [seen.get(`${move.prefix}${form.label}`)!.shown, ...(move.alsoShows ?? []).map((kind) => form.find(d, move.prefix, kind).name)]);
    expect(updatedOthers().map((x) => `${x.op} ${x.name}`).sort()).toEqual(expected.map((n) => `update ${n}`).sort());
    // Every request names one of the moved sites.
    expect(d.emu.log.entries.filter((e) => !copies.some(({ move, form }) => e.path.includes(`/sites/${siteOf(move, form)}`)))).toEqual([]);
  });

  it("then nothing to do", async () => {
    expect((await d.run("preview", undefined, { flags: ["--expect-no-changes"] })).error).toBeUndefined();
  }, 240_000);
});
