/**
 * Deleting a section deletes every site space in it. No run may end in success while state still lists
 * a site space the run itself caused the API to delete: a SiteSpace names its section (sectionId is
 * required), through the SiteSection's `id` output so that the engine replaces or removes it with the
 * section; one that does not follow its section (a fixed ID) makes the section's delete fail, before
 * anything is deleted, from what GitBook says the section holds (never from what one provider process
 * saw earlier in the run: see cascade.test.ts for the same under every order the engine may take).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

/** Every SiteSection and SiteSpace state lists exists on the emulator, each site space in the section state says. */
function expectStateTrue(d: Deployment): void {
  const st = d.emu.store;
  // A resource deleted by a delete-before-replace that the failed run did not finish stays in state
  // marked pendingReplacement: state says it is gone, and the next up creates it.
  for (const r of d.state().resources.filter((x) => !x.pendingReplacement)) {
    if (r.type.endsWith(":SiteSection")) expect(st.sections.has(r.id!), `${r.name} in state but deleted`).toBe(true);
    if (r.type.endsWith(":SiteSpace")) {
      expect(st.siteSpaces.get(r.id!)?.sectionId, `${r.name} in state but deleted`).toBe(r.outputs.parentSectionId);
    }
  }
}

function program(d: Deployment, opts: { spaceOfA?: number; withA?: boolean; followerIn?: "sectionA" | "sectionB" | "gone"; fixed?: string } = {}): Decl[] {
  const s = d.emu.seeded.spaceIds;
  const { spaceOfA = 0, withA = true, followerIn = "sectionA", fixed } = opts;
  const decls: Decl[] = [{ kind: "Site", name: "site", args: { title: "Cascade Docs" } }];
  if (withA) decls.push({ kind: "SiteSection", name: "sectionA", args: { siteId: ref("site.id"), spaceId: s[spaceOfA], title: "Section A", default: true } });
  decls.push({ kind: "SiteSection", name: "sectionB", args: { siteId: ref("site.id"), spaceId: s[1], title: "Section B" } });
  if (followerIn !== "gone") {
    decls.push({ kind: "SiteSpace", name: "follower", args: { siteId: ref("site.id"), sectionId: ref(`${followerIn}.id`), spaceId: s[2], path: "v2" } });
  }
  if (fixed) decls.push({ kind: "SiteSpace", name: "fixed", args: { siteId: ref("site.id"), sectionId: fixed, spaceId: s[3], path: "v3" } });
  return decls;
}

describeDeployments("a SiteSpace declared without sectionId", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("fails preview naming sectionId, before any request", async () => {
    const decls = [...program(d), { kind: "SiteSpace", name: "implicit", args: { siteId: ref("site.id"), spaceId: d.emu.seeded.spaceIds[4] } }];
    d.emu.log.reset();
    const r = await d.run("preview", decls);
    expect(r.checkFailures).toEqual([expect.objectContaining({ property: "sectionId", reason: "sectionId is required" })]);
    expect(d.emu.log.count()).toBe(0);
  });
});

describeDeployments("a section holding site spaces that follow it (sectionId: section.id)", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  // On this stack's first deployment, before the replacements below: it is the program that case needs.
  it("state written before sectionId was required: takes the section the site space is in, once declared, as no change", async () => {
    expect((await d.run("up", program(d))).error).toBeUndefined();
    // What an earlier version recorded for a SiteSpace placed in the default section implicitly.
    await d.editState((resources) => {
      const follower = resources.find((r) => r.name === "follower")!;
      delete follower.inputs.sectionId;
      delete follower.outputs.sectionId;
    });
    d.emu.log.reset();
    const r = await d.run("up", program(d));
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((s) => !s.startsWith("same"))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
  });

  it("replaces them with the section, and a re-run then finds nothing to do", async () => {
    const oldSection = d.resource("sectionA").id!;
    const oldFollower = d.resource("follower").id!;
    const r = await d.run("up", program(d, { spaceOfA: 5 }));
    expect(r.error).toBeUndefined();
    expect(steps(r)).toEqual(expect.arrayContaining(["replace sectionA", "replace follower"]));
    const section = d.resource("sectionA").id!;
    expect(section).not.toBe(oldSection);
    expect(d.resource("follower").id).not.toBe(oldFollower);
    expect(d.emu.store.siteSpaces.get(d.resource("follower").id!)).toMatchObject({ sectionId: section, path: "v2" });
    expectStateTrue(d);
    d.emu.log.reset();
    const again = await d.run("up", program(d, { spaceOfA: 5 }));
    expect(steps(again).filter((s) => !s.startsWith("same"))).toEqual([]);
    expect(d.emu.log.writes()).toBe(0);
    // Sections and site spaces are as state says. (The Site's counters are another matter.)
    const refreshed = await d.run("refresh");
    expect(steps(refreshed).filter((s) => /section|follower/.test(s) && !s.startsWith("same"))).toEqual([]);
  });

  it("moves them when the section is removed and they name another", async () => {
    const r = await d.run("up", program(d, { withA: false, followerIn: "sectionB" }));
    expect(r.error).toBeUndefined();
    expect(steps(r)).toEqual(expect.arrayContaining(["replace follower", "delete sectionA"]));
    expect(d.emu.store.siteSpaces.get(d.resource("follower").id!)).toMatchObject({ sectionId: d.resource("sectionB").id, path: "v2" });
    expectStateTrue(d);
  });

  it("removes them with the section", async () => {
    expect((await d.run("up", program(d))).error).toBeUndefined();
    const r = await d.run("up", program(d, { withA: false, followerIn: "gone" }));
    expect(r.error).toBeUndefined();
    expect(d.state().resources.map((x) => x.name)).not.toContain("follower");
    expectStateTrue(d);
    // Only sectionB's own site space is left.
    expect([...d.emu.store.siteSpaces.values()].map((x) => x.sectionId)).toEqual([d.resource("sectionB").id]);
  });
});

describeDeployments("a section holding a site space that names it by a fixed ID", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("fails the run that would delete it with its section, before deleting anything, never leaving state listing it", async () => {
    expect((await d.run("up", program(d))).error).toBeUndefined();
    const sectionA = d.resource("sectionA").id!;
    expect((await d.run("up", program(d, { fixed: sectionA }))).error).toBeUndefined();
    const fixed = d.resource("fixed").id!;
    for (const change of [{ spaceOfA: 5 }, { withA: false, followerIn: "sectionB" as const }]) {
      d.emu.log.reset();
      const r = await d.run("up", program(d, { ...change, fixed: sectionA }));
      // The section's delete reads what the section holds from GitBook, whatever the run reached first.
      expect(r.error).toMatch(new RegExp(`SiteSection \\S+: deleting it \\(${sectionA}\\) would also delete .*\\(${fixed}\\).*name this SiteSection by its id output`));
      expect(d.emu.log.count({ method: "DELETE", route: /sections/ })).toBe(0);
      expect(d.emu.store.sections.has(sectionA)).toBe(true);
      expect(d.emu.store.siteSpaces.get(fixed)?.sectionId).toBe(sectionA);
      expectStateTrue(d);
    }
  }, 300_000);

  it("converges once the site space follows its section: named by the id output first, then replaced with it", async () => {
    const following: Decl = { kind: "SiteSpace", name: "fixed", args: { siteId: ref("site.id"), sectionId: ref("sectionA.id"), spaceId: d.emu.seeded.spaceIds[3], path: "v3" } };
    // The engine learns the dependency from state, so it is recorded first, by an up that replaces nothing.
    const named = await d.run("up", [...program(d), following]);
    expect(named.error).toBeUndefined();
    // (The follower moves back to sectionA; the section and the site space that names it change nothing.)
    expect(steps(named)).toEqual(expect.arrayContaining(["same sectionA", "same fixed"]));
    const r = await d.run("up", [...program(d, { spaceOfA: 5 }), following]);
    expect(r.error).toBeUndefined();
    expect(steps(r)).toEqual(expect.arrayContaining(["replace sectionA", "replace fixed"]));
    expectStateTrue(d);
    expect(d.emu.store.siteSpaces.get(d.resource("fixed").id!)).toMatchObject({ sectionId: d.resource("sectionA").id, path: "v3" });
  }, 300_000);
});
