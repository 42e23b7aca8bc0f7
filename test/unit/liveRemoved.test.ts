/**
 * A live field (always in the outputs, managed only while declared: a site's visibility, a share link's
 * `active`, a space's edit mode, a visitor auth's backend, an OpenAPI spec's visibility) that the
 * program stops declaring is no longer the program's: a later app edit of it is no drift at refresh,
 * though the run that removed it changes nothing on GitBook: its plan is an update of state alone (no
 * request), which rewrites the outputs' record of the live fields declared; before, it was no update,
 * the record kept the field, and refresh handed it back as an input.
 */
import { describe, expect, it } from "vitest";
import { programSuite } from "../support/program";
import { ref, site } from "../support/scenarios";

const program = (p: Record<string, unknown>) => Object.fromEntries(Object.entries(p).filter(([k]) => k !== "__provider"));

describe("a live field removed from the program", () => {
  const s = programSuite();

  it("Site visibility: an app edit after its removal is no drift at refresh", async () => {
    await s.p.up([{ kind: "Site", name: "subject", args: { title: "Live Docs", visibility: "unlisted" } }]);
    // The removal is a change of state alone: an update that sends nothing, and leaves the site unlisted.
    s.env.emu.log.reset();
    const steps = await s.p.up([{ kind: "Site", name: "subject", args: { title: "Live Docs" } }]);
    expect(steps).toEqual([{ name: "subject", op: "update", changed: ["visibility"] }]);
    expect(s.env.emu.log.count()).toBe(0);
    expect(s.env.emu.store.sites.get(s.p.resource("subject").id)!.visibility).toBe("unlisted");
    s.env.emu.store.sites.get(s.p.resource("subject").id)!.visibility = "public";
    const before = program(s.p.resource("subject").inputs);
    await s.p.refresh();
    expect(program(s.p.resource("subject").inputs)).toEqual(before);
    expect((await s.p.preview()).every((x) => x.op === "same")).toBe(true);
    s.env.emu.log.reset();
    expect((await s.p.up()).every((x) => x.op === "same")).toBe(true);
    expect(s.env.emu.log.count()).toBe(0);
  });

  it("Site type, live and replace-only: its removal replaces nothing and sends nothing", async () => {
    await s.p.up([{ kind: "Site", name: "typed", args: { title: "Typed Docs", type: "premium" } }]);
    const id = s.p.resource("typed").id;
    s.env.emu.log.reset();
    expect(await s.p.up([{ kind: "Site", name: "typed", args: { title: "Typed Docs" } }])).toEqual([{ name: "typed", op: "update", changed: ["type"] }]);
    expect(s.env.emu.log.count()).toBe(0);
    expect(s.p.resource("typed").id).toBe(id);
    s.env.emu.store.sites.get(id)!.type = "ultimate";
    const before = program(s.p.resource("typed").inputs);
    await s.p.refresh();
    expect(program(s.p.resource("typed").inputs)).toEqual(before);
  });

  it("ShareLink active: the same", async () => {
    await s.p.up([site(), { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Reviewers", active: true } }]);
    await s.p.up([site(), { kind: "ShareLink", name: "link", args: { siteId: ref("site.id"), name: "Reviewers" } }]);
    s.env.emu.store.shareLinks.get(s.p.resource("link").id)!.active = false;
    const before = program(s.p.resource("link").inputs);
    await s.p.refresh();
    expect(program(s.p.resource("link").inputs)).toEqual(before);
  });
});
