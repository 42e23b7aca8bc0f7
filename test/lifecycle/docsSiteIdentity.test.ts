/**
 * What a DocsSite creates keeps its identity wherever its entry stands (issue 19 part 2): through the
 * real CLI, a Space created for a `space:` entry survives the upgrade from the names earlier versions
 * gave it (by place) in the same `up` as its entry moving to another section, and the section around it renamed with
 * `formerKeys`, as the same GitBook space, never trashed, and no plan deletes or replaces a Space.
 * A change that would replace a Space fails the preview, naming it, unless the program opts in.
 *
 * One stack, a DocsSite and a Space beside it (issue 23: engine runs are the suite's cost): the
 * upgraded checkpoint's first `up` also replaces the other Space, whose program opts in.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { otherOrg } from "../support/scenarios";
import type { RunReport } from "../../dev/report";

type Section = { key: string; formerKeys?: string[]; spaceId?: string; title?: string; siteSpaces?: unknown[] };

describeDeployments("a DocsSite's created space across upgrade, move and rename", () => {
  let d: Deployment;
  let spaceId: string;
  const docs = (sections: Section[]): Decl[] => [{ kind: "DocsSite", name: "docs", args: { site: { title: "Identity Docs" }, sections } }];
  const tutorials = { key: "tut", path: "tutorials", space: { title: "Tutorials" } };
  const spaces = () => d.emu.seeded.spaceIds;
  /** The steps of a run touching a Space, and every step that deletes or replaces anything. */
  const losses = (r: RunReport) => r.steps.filter((s) => s.op === "delete" || s.op === "replace" || (s.type.endsWith(":Space") && s.op !== "same")).map((s) => `${s.op} ${s.name}`);
  const space = () => d.emu.store.spaces.get(spaceId)!;
  const spaceResources = () => d.state().resources.filter((r) => r.type.endsWith(":Space"));

  /** A Space of its own beside the DocsSite, for the replacement refusal. */
  const loose = (args: Record<string, unknown> = {}): Decl => ({ kind: "Space", name: "loose", args: { title: "Loose notes", ...args } });
  const start = () => docs([{ key: "start", spaceId: spaces()[0] }, { key: "guides", spaceId: spaces()[1], siteSpaces: [tutorials] }]);

  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("creates the space under a name of its own key", async () => {
    const r = await d.run("up", [...start(), loose()]);
    expect(r.error).toBeUndefined();
    expect(spaceResources().map((x) => x.name).sort()).toEqual(["docs/spaces/tut", "loose"]);
    spaceId = d.resource("docs/spaces/tut").id!;
    expect(space().title).toBe("Tutorials");
  });

  it("fails the preview of a change that would replace a space, naming it, the field and the trash", async () => {
    const id = d.resource("loose").id!;
    d.emu.log.reset();
    const r = await d.run("preview", [...start(), loose({ organizationId: otherOrg(d.emu) })]);
    expect(r.error).toMatch(new RegExp(`Space loose: organizationId: this change replaces the Space: .*would delete Space ${id} \\(its pages going with it to GitBook's trash\\)`));
    expect(r.error).toContain("allowReplacement: true");
    expect(d.emu.log.writes()).toBe(0);
    expect(d.emu.store.spaces.get(id)!.deletedAt).toBeUndefined();
  });

  // One up for all three: the upgraded checkpoint's first run also moves the entry to another section
  // (the old name is then under a section the entry no longer stands in: before the guess of earlier
  // places, this run trashed the space and created an empty one), and the other Space, whose program
  // now opts in, is replaced.
  it("recognises the space under the name an earlier version gave it (by place), even when the same up moves its entry: nothing trashed; a program that opts in may replace a space", async () => {
    // The checkpoint as 0.1.0 wrote it: the Space named by where its entry stood.
    await d.editState((resources) => {
      for (const r of resources) {
        const text = JSON.stringify(r).replaceAll("Space::docs/spaces/tut", "Space::docs/guides/tut/space");
        Object.assign(r, JSON.parse(text));
      }
    });
    expect(spaceResources().map((x) => x.name).sort()).toEqual(["docs/guides/tut/space", "loose"]);
    const id = d.resource("loose").id!;
    const moved = docs([{ key: "start", spaceId: spaces()[0], siteSpaces: [tutorials] }, { key: "guides", spaceId: spaces()[1] }]);
    const r = await d.run("up", [...moved, loose({ organizationId: otherOrg(d.emu), allowReplacement: true })]);
    expect(r.error).toBeUndefined();
    // GitBook moves no site space between sections: the pointer is replaced, never the space it shows.
    expect(losses(r).sort()).toEqual(["delete docs/guides/tut", "replace loose"]);
    expect(r.steps.find((s) => s.name === "loose")).toMatchObject({ op: "replace", replaces: ["organizationId"] });
    expect(d.resource("docs/spaces/tut").id).toBe(spaceId);
    expect(space().deletedAt).toBeUndefined();
    expect([...d.emu.store.spaces.values()].filter((s) => s.title === "Tutorials")).toHaveLength(1);
    const site = [...d.emu.store.sites.values()][0]!;
    const startSection = d.emu.store.sectionsOf(site.id).find((s) => s.id === d.resource("docs/start").id)!;
    expect(d.emu.store.siteSpacesIn(site.id, startSection.id).map((ss) => ss.spaceId)).toContain(spaceId);
    expect(d.emu.store.spaces.get(id)!.deletedAt).toBeDefined();
    expect(d.emu.store.spaces.get(d.resource("loose").id!)).toMatchObject({ orgId: otherOrg(d.emu) });
  });

  it("renames the section around it with formerKeys: every child updated in place, nothing deleted or created", async () => {
    const sectionId = d.resource("docs/start").id;
    const siteSpaceId = d.resource("docs/start/tut").id;
    const renamed = docs([{ key: "intro", formerKeys: ["start"], spaceId: spaces()[0], siteSpaces: [tutorials] }, { key: "guides", spaceId: spaces()[1] }]);
    const r = await d.run("up", [...renamed, loose({ organizationId: otherOrg(d.emu), allowReplacement: true })]);
    expect(r.error).toBeUndefined();
    expect(r.steps.filter((s) => s.op !== "same" && s.op !== "update").map((s) => `${s.op} ${s.name}`)).toEqual([]);
    expect(d.resource("docs/intro").id).toBe(sectionId);
    expect(d.resource("docs/intro/tut").id).toBe(siteSpaceId);
    expect(d.resource("docs/spaces/tut").id).toBe(spaceId);
    expect(space().deletedAt).toBeUndefined();
  });
});
