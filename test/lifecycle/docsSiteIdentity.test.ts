/**
 * What a DocsSite creates keeps its identity wherever its entry stands (issue 19 part 2): through the
 * real CLI, a Space created for a `space:` entry survives the upgrade from the names earlier versions
 * gave it (by place) in the same `up` as its entry moving to another section, and the section around it renamed with
 * `formerKeys`, as the same GitBook space, never trashed, and no plan deletes or replaces a Space.
 * A change that would replace a Space fails at its diff, naming it, unless the program opts in: the
 * provider's refusal, proved in process by provider/resources/space.test.ts.
 *
 * One stack, a DocsSite and Spaces beside it (issue 23: engine runs are the suite's cost): the
 * upgraded checkpoint's first `up` also replaces another Space, whose program opts in, and moves two
 * spaces to renamed resources by adoptId (a way to move an object between resources without aliases):
 * the engine creates the new resource, then deletes the old one. When the provider process that serves
 * the delete saw the new one take the object over, the delete leaves the object to it (before, it
 * deleted the space the new resource had just adopted, its pages going to the trash); the engine may
 * serve it from another process, which cannot know, so the README's way is `retainOnDelete` on the old
 * resource first, which the engine honours whatever process serves the run (no delete is sent at all).
 * A second adoptId naming the same object is refused by the program before anything is sent: that is
 * the program's process alone, proved in process by provider/resources/overlaps.test.ts.
 *
 * A section's key renamed without `formerKeys` (issue 42 case 3) makes the engine delete the Space the
 * DocsSite created for it and create an empty one: the delete refuses while the space holds pages,
 * naming them and the fixes, and no DELETE reaches it; the fix it names then works.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { otherOrg } from "../support/scenarios";
import type { RunReport } from "../../dev/report";

type Section = { key: string; formerKeys?: string[]; spaceId?: string; space?: { title: string }; title?: string; siteSpaces?: unknown[] };

describeDeployments("a DocsSite's created space across upgrade, move and rename", () => {
  let d: Deployment;
  let spaceId: string;
  const docs = (sections: Section[]): Decl[] => [{ kind: "DocsSite", name: "docs", args: { site: { title: "Identity Docs" }, sections } }];
  const tutorials = { key: "tut", path: "tutorials", space: { title: "Tutorials" } };
  /** A section whose own space the DocsSite creates (`docs/spaces/<key>`): the brief's guides → handbook rename. */
  const guides = (key = "guides", more: Partial<Section> = {}): Section => ({ key, space: { title: "Guides" }, ...more });
  const spaces = () => d.emu.seeded.spaceIds;
  /** The steps of a run touching a Space, and every step that deletes or replaces anything. */
  const losses = (r: RunReport) => r.steps.filter((s) => s.op === "delete" || s.op === "replace" || (s.type.endsWith(":Space") && s.op !== "same")).map((s) => `${s.op} ${s.name}`);
  const space = () => d.emu.store.spaces.get(spaceId)!;
  const spaceResources = () => d.state().resources.filter((r) => r.type.endsWith(":Space"));

  /** A Space of its own beside the DocsSite, replaced once its program opts in. */
  const loose = (args: Record<string, unknown> = {}): Decl => ({ kind: "Space", name: "loose", args: { title: "Loose notes", ...args } });
  const start = () => docs([{ key: "start", spaceId: spaces()[0] }, guides("guides", { siteSpaces: [tutorials] })]);
  /** The spaces moved by adoptId: `old` to `renamed` alone, `before` to `after` with retainOnDelete first. */
  const unmoved: Decl[] = [
    { kind: "Space", name: "old", args: { title: "Moved Handbook" } },
    { kind: "Space", name: "before", args: { title: "Retained Handbook" }, retainOnDelete: true },
  ];
  let moved: string;
  let retained: string;
  const adopted = (): Decl[] => [
    { kind: "Space", name: "renamed", args: { title: "Moved Handbook", adoptId: moved } },
    { kind: "Space", name: "after", args: { title: "Retained Handbook", adoptId: retained } },
  ];
  /** The start section once the tutorials' entry moved into it. */
  const started = (): Section => ({ key: "start", spaceId: spaces()[0], siteSpaces: [tutorials] });
  /** Everything beside the DocsSite after the upgrade's up. */
  const rest = (): Decl[] => [loose({ organizationId: otherOrg(d.emu), allowReplacement: true }), ...adopted()];
  /** The requests that wrote to the spaces moved by adoptId. */
  const adoptedWrites = () => d.emu.log.entries.filter((e) => e.method !== "GET" && [moved, retained].some((id) => e.path.includes(id)));

  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("creates the space under a name of its own key", async () => {
    const r = await d.run("up", [...start(), loose(), ...unmoved]);
    expect(r.error).toBeUndefined();
    expect(spaceResources().map((x) => x.name).sort()).toEqual(["before", "docs/spaces/guides", "docs/spaces/tut", "loose", "old"]);
    spaceId = d.resource("docs/spaces/tut").id!;
    expect(space().title).toBe("Tutorials");
    moved = d.resource("old").id!;
    retained = d.resource("before").id!;
  });

  // One up for all: the upgraded checkpoint's first run also moves the entry to another section (the
  // old name is then under a section the entry no longer stands in: before the guess of earlier
  // places, this run trashed the space and created an empty one), the other Space, whose program now
  // opts in, is replaced, and two spaces move to renamed resources by adoptId.
  it("recognises the space under the name an earlier version gave it (by place), even when the same up moves its entry: nothing trashed; a program that opts in may replace a space; a space moved by adoptId stays, with retainOnDelete first without a delete sent at all", async () => {
    // The checkpoint as 0.1.0 wrote it: the Space named by where its entry stood.
    await d.editState((resources) => {
      for (const r of resources) {
        const text = JSON.stringify(r).replaceAll("Space::docs/spaces/tut", "Space::docs/guides/tut/space");
        Object.assign(r, JSON.parse(text));
      }
    });
    expect(spaceResources().map((x) => x.name).sort()).toEqual(["before", "docs/guides/tut/space", "docs/spaces/guides", "loose", "old"]);
    const id = d.resource("loose").id!;
    d.emu.log.reset();
    const r = await d.run("up", [...docs([started(), guides()]), ...rest()]);
    expect(r.error).toBeUndefined();
    // GitBook moves no site space between sections: the pointer is replaced, never the space it shows.
    // The spaces moved by adoptId: their new resources created, the old ones deleted from state.
    expect(losses(r).sort()).toEqual(["create after", "create renamed", "delete before", "delete docs/guides/tut", "delete old", "replace loose"]);
    expect(r.steps.find((s) => s.name === "loose")).toMatchObject({ op: "replace", replaces: ["organizationId"] });
    expect(d.resource("docs/spaces/tut").id).toBe(spaceId);
    expect(space().deletedAt).toBeUndefined();
    expect([...d.emu.store.spaces.values()].filter((s) => s.title === "Tutorials")).toHaveLength(1);
    const site = [...d.emu.store.sites.values()][0]!;
    const startSection = d.emu.store.sectionsOf(site.id).find((s) => s.id === d.resource("docs/start").id)!;
    expect(d.emu.store.siteSpacesIn(site.id, startSection.id).map((ss) => ss.spaceId)).toContain(spaceId);
    expect(d.emu.store.spaces.get(id)!.deletedAt).toBeDefined();
    expect(d.emu.store.spaces.get(d.resource("loose").id!)).toMatchObject({ orgId: otherOrg(d.emu) });

    // The provider's delete was called for `old`, and said what it did instead.
    expect(r.stdout).toContain(`${moved} is left in GitBook, not deleted`);
    expect(d.resource("renamed").id).toBe(moved);
    expect(d.emu.store.spaces.get(moved)?.deletedAt ?? null).toBeNull();
    // Neither sent a delete; and for the retained one the engine did not even call the provider's delete
    // (which, in the same process, would also have left the object, saying so): the option holds
    // whichever process would have served it.
    expect(adoptedWrites().filter((e) => e.method === "DELETE")).toEqual([]);
    expect(r.stdout).not.toContain(`${retained} is left in GitBook`);
    expect(d.resource("after").id).toBe(retained);
    expect(d.emu.store.spaces.get(retained)?.deletedAt ?? null).toBeNull();
  });

  // Issue 42 case 3: the engine plans a delete and a create; the Space's delete refuses while it holds pages.
  it("refuses the delete of a created space holding pages when its section's key is renamed without formerKeys, naming the pages and the fixes; no DELETE reaches it", async () => {
    const id = d.resource("docs/spaces/guides").id!;
    d.emu.store.writePages(id, ["Install", "Configure"]);
    d.emu.log.reset();
    const r = await d.run("up", [...docs([started(), guides("handbook")]), ...rest()]);
    expect(r.error).toMatch(
      new RegExp(
        `Space docs/spaces/guides: deleting it \\(${id}\\) would send the 3 pages it holds to GitBook's trash .*Nothing was deleted\\. ` +
          "If it was renamed rather than removed.*`formerKeys`.*set forceDestroy: true on this Space \\(in a DocsSite: its entry's `space.forceDestroy`\\).*retainOnDelete: true \\(in a DocsSite: its entry's `space.retainOnDelete`\\)",
      ),
    );
    expect(d.emu.log.entries.filter((e) => e.method === "DELETE" && e.path.endsWith(`/spaces/${id}`))).toEqual([]);
    expect(d.emu.store.spaces.get(id)!.deletedAt).toBeUndefined();
    expect(d.emu.store.spaces.get(id)!.pages).toHaveLength(3);
    expect(d.resource("docs/spaces/guides").id).toBe(id);
  });

  // What the refusal advises: the engine made the new key's space before the refused delete, and once that
  // is in state an alias added then no longer takes the old space's place (the old one is deleted again).
  // The way back is also the run after the moves by adoptId: it has nothing to do for them. The last up
  // renames the section around the tutorials' space too: every child updated in place.
  it("recovers as the refusal says: the old key back deletes what the refused run made (a space as GitBook made it holds no page that counts), then formerKeys renames in place, the section around the tutorials' space alike", async () => {
    const id = d.resource("docs/spaces/guides").id!;
    const made = d.resource("docs/spaces/handbook").id!;
    d.emu.log.reset();
    const back = await d.run("up", [...docs([started(), guides()]), ...rest()]);
    expect(back.error).toBeUndefined();
    expect(losses(back).sort()).toEqual(["delete docs/handbook", "delete docs/spaces/handbook"]);
    expect(back.steps.filter((s) => ["renamed", "after"].includes(s.name)).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["same after", "same renamed"]);
    expect(adoptedWrites()).toEqual([]);
    expect(d.emu.store.spaces.get(made)!.deletedAt).toBeDefined();
    const section = d.emu.store.sections.get(d.resource("docs/guides").id!)!;
    expect(d.emu.store.siteSpacesIn(section.siteId, section.id).map((ss) => ss.spaceId)).toEqual([id]);

    const sectionId = d.resource("docs/start").id;
    const siteSpaceId = d.resource("docs/start/tut").id;
    const intro = { ...started(), key: "intro", formerKeys: ["start"] };
    const renamed = await d.run("up", [...docs([intro, guides("handbook", { formerKeys: ["guides"] })]), ...rest()]);
    expect(renamed.error).toBeUndefined();
    expect(renamed.steps.filter((s) => s.op !== "same" && s.op !== "update").map((s) => `${s.op} ${s.name}`)).toEqual([]);
    expect(d.resource("docs/intro").id).toBe(sectionId);
    expect(d.resource("docs/intro/tut").id).toBe(siteSpaceId);
    expect(d.resource("docs/spaces/tut").id).toBe(spaceId);
    expect(space().deletedAt).toBeUndefined();
    expect(d.resource("docs/spaces/handbook").id).toBe(id);
    expect(d.emu.store.spaces.get(id)!.deletedAt).toBeUndefined();
    expect(d.emu.store.spaces.get(id)!.pages).toHaveLength(3);
  });
});
