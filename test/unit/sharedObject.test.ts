/**
 * Two resources never share one object, for every adoptable kind (test/support/scenarios.ts), and a
 * resource leaving the program never deletes an object the program took over under another name:
 * - two resources with the same adoptId: the second is refused, naming the first, with no write;
 * - a resource adopting what another holds in state, seen in either order: refused at the second;
 * - a resource renamed, the new name given the old one's ID as adoptId (the engine creates the new
 *   one, then deletes the old one): the object stays, managed by the new resource, and the next run
 *   has nothing to do. Before, the old resource's delete deleted the object the new one had just
 *   adopted (a space with its pages), and the new one stayed in state over nothing.
 * And a singleton declared anew under another name (a SiteSpaceCustomization renamed): the old one's
 * delete no longer clears the overrides the new one declares. Resources sharing an ID but managing
 * different parts of one object (an AccessList's teams, another's users) are neither refused nor kept
 * from deleting their own part.
 */
import { describe, expect, it, vi } from "vitest";
import { definitionOf } from "../../provider/impl";
import { programSuite } from "../support/program";
import { scenarios } from "../support/scenarios";
import type { Decl } from "../support/lifecycle";

describe.each(Object.values(scenarios))("$kind", (sc) => {
  const s = programSuite();
  const split = () => {
    const base = sc.program(s.env.emu, "base");
    return { deps: base.slice(0, -1), subject: base.at(-1)! };
  };
  const as = (d: Decl, name: string, adoptId?: string): Decl => ({ ...d, name, args: { ...d.args, ...(adoptId ? { adoptId } : {}) } });

  it("is adoptable (the scenario's kind takes adoptId)", async () => {
    expect((await definitionOf(sc.kind)).schema.shape).toHaveProperty("adoptId");
  });

  it("refuses a second resource with the same adoptId, naming the first, and writes nothing for it", async () => {
    const { deps, subject } = split();
    await s.p.up(deps);
    const existing = await sc.existing(s.env.emu, s.p);
    await s.p.up([...deps, as(subject, "subject", existing)]);
    s.env.emu.log.reset();
    await expect(s.p.up([...deps, as(subject, "subject", existing), as(subject, "twin", existing)])).rejects.toThrow(
      new RegExp(`^${sc.kind} twin: adoptId: "${existing}" names the object ${sc.kind} subject of this stack manages: .*Nothing was changed`),
    );
    expect(s.env.emu.log.writes()).toBe(0);
    expect(s.p.names()).not.toContain("twin");
    await s.p.destroy();
  });

  it("refuses a resource holding an object another adopted earlier in the run, naming it", async () => {
    const { deps, subject } = split();
    await s.p.up([...deps, subject]);
    const id = s.p.resource("subject").id;
    await expect(s.p.up([...deps, as(subject, "twin", id), subject])).rejects.toThrow(
      // The twin adopted first may be in state now: removing either without retainOnDelete would delete the object.
      new RegExp(`^${sc.kind} subject: ${sc.kind} twin of this stack also manages ${id}.*State may now hold both.*set retainOnDelete: true on it and run up`),
    );
    expect(sc.live(s.env.emu, id)).toBeDefined();
    await s.p.up([...deps, subject]).catch(() => undefined);
    await s.p.destroy();
  });

  it("keeps the object when a renamed resource adopts it, and the next run has nothing to do", async () => {
    const { deps, subject } = split();
    await s.p.up([...deps, subject]);
    const id = s.p.resource("subject").id;
    const count = sc.count(s.env.emu);
    const notes: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (notes.push(String(chunk)), true));
    const steps = await s.p.up([...deps, as(subject, "renamed", id)]).finally(() => write.mockRestore());
    // The plan says "delete subject": the run says what became of the object.
    expect(notes).toContain(`pulumi-gitbook: ${sc.kind} subject: ${id} is left in GitBook, not deleted: ${sc.kind} renamed of this stack manages it now.\n`);
    expect(steps.filter((x) => x.name === "subject" || x.name === "renamed").map((x) => `${x.op} ${x.name}`)).toEqual(["create renamed", "delete subject"]);
    expect(sc.live(s.env.emu, id)).toBeDefined();
    expect(sc.count(s.env.emu)).toBe(count);
    expect(s.p.resource("renamed").id).toBe(id);
    expect((await s.p.refresh()).find((x) => x.name === "renamed")?.op).not.toBe("read-gone");
    s.env.emu.log.reset();
    expect((await s.p.up()).every((x) => x.op === "same")).toBe(true);
    expect(s.env.emu.log.writes()).toBe(0);
    await s.p.destroy();
    expect(sc.live(s.env.emu, id)).toBeUndefined();
  });
});

describe("SiteSpaceCustomization declared anew under another name", () => {
  const s = programSuite();
  it("keeps the overrides the new resource declares: the old one's delete clears nothing the program still declares", async () => {
    const deps: Decl[] = [
      { kind: "Site", name: "site", args: { title: "Renamed Overrides" } },
      { kind: "SiteSection", name: "sec", args: { siteId: { $ref: "site.id" }, spaceId: s.env.emu.seeded.spaceIds[0], title: "Guides" } },
    ];
    const custom = (name: string): Decl => ({ kind: "SiteSpaceCustomization", name, args: { siteId: { $ref: "site.id" }, siteSpaceId: { $ref: "sec.siteSpaceId" }, title: "Guides FR" } });
    await s.p.up([...deps, custom("old")]);
    const siteSpaceId = s.p.resource("sec").outputs.siteSpaceId as string;
    const overrides = () => s.env.emu.store.siteSpaceCustomizations.get(siteSpaceId)?.overrides;
    expect(overrides()).toMatchObject({ title: "Guides FR" });
    const steps = await s.p.up([...deps, custom("new")]);
    expect(steps.filter((x) => x.name === "old" || x.name === "new").map((x) => `${x.op} ${x.name}`)).toEqual(["create new", "delete old"]);
    expect(overrides()).toMatchObject({ title: "Guides FR" });
    expect((await s.p.refresh()).find((x) => x.name === "new")?.op).toBe("same");
    await s.p.destroy();
    expect(overrides()?.title).toBeUndefined();
  });
});

describe("AccessLists of one object managing different kinds of grant", () => {
  const s = programSuite();
  it("are both declared, and removing one removes its grants only", async () => {
    const deps: Decl[] = [
      { kind: "Collection", name: "col", args: { title: "Shared Access" } },
      { kind: "Team", name: "t1", args: { title: "Shared Access Team" } },
    ];
    const member = s.env.emu.seeded.members[0]!.id;
    const teams: Decl = { kind: "AccessList", name: "teams", args: { collectionId: { $ref: "col.id" }, teams: [{ teamId: { $ref: "t1.id" }, role: "read" }] } };
    const users: Decl = { kind: "AccessList", name: "users", args: { collectionId: { $ref: "col.id" }, users: [{ userId: member, role: "read" }] } };
    await s.p.up([...deps, teams, users]);
    const col = s.p.resource("col").id;
    const grants = () => [...s.env.emu.store.permissions.values()].filter((g) => g.targetId === col).map((g) => g.principal).sort();
    expect(grants()).toEqual(["team", "user"]);
    expect((await s.p.up([...deps, teams, users])).every((x) => x.op === "same")).toBe(true);
    await s.p.up([...deps, users]);
    expect(grants()).toEqual(["user"]);
    await s.p.destroy();
  });
});

describe("kinds of which a site (or a hostname) has one, declared twice for it", () => {
  const s = programSuite();
  const schema = (claim: string) => ({ type: "object", properties: { [claim]: { type: "boolean", description: "A claim." } }, additionalProperties: false });
  const site: Decl = { kind: "Site", name: "site", args: { title: "Twice Docs" } };

  it("refuses a second SiteAdaptiveSchema of the site before it writes: two schemas of one site replaced each other on every run", async () => {
    await s.p.up([site, { kind: "SiteAdaptiveSchema", name: "first", args: { siteId: { $ref: "site.id" }, jsonSchema: schema("isBeta") } }]);
    const siteId = s.p.resource("site").id;
    s.env.emu.log.reset();
    await expect(
      s.p.up([
        site,
        { kind: "SiteAdaptiveSchema", name: "first", args: { siteId: { $ref: "site.id" }, jsonSchema: schema("isBeta") } },
        { kind: "SiteAdaptiveSchema", name: "second", args: { siteId: { $ref: "site.id" }, jsonSchema: schema("isStaff") } },
      ]),
    ).rejects.toThrow(/^SiteAdaptiveSchema second: another SiteAdaptiveSchema of this stack already manages site .*Nothing was sent/);
    expect(s.env.emu.log.writes()).toBe(0);
    expect(Object.keys((s.env.emu.store.adaptiveSchemas.get(siteId)!.jsonSchema as { properties: object }).properties)).toEqual(["isBeta"]);
    await s.p.destroy();
  });

  it("refuses a second SiteCustomHostname of the hostname: either one's delete removed it for both", async () => {
    await s.p.up([site]);
    const siteId = s.p.resource("site").id;
    const hostname = `docs-${siteId.toLowerCase().replace(/[^a-z0-9]/g, "")}.acme.test`;
    s.env.emu.store.customHostnames.set(hostname, { id: hostname, seq: 0, createdAt: new Date(0).toISOString(), targetType: "site", targetId: siteId, isActive: true, status: "dns_wrong_cname" });
    s.env.emu.store.sites.get(siteId)!.hostname = hostname;
    const host = (name: string): Decl => ({ kind: "SiteCustomHostname", name, args: { siteId: { $ref: "site.id" }, hostname, removeOnDestroy: true } });
    await s.p.up([site, host("first")]);
    await expect(s.p.up([site, host("first"), host("second")])).rejects.toThrow(/^SiteCustomHostname second: another SiteCustomHostname of this stack already manages hostname .*Nothing was sent/);
    expect(s.p.names()).not.toContain("second");
    await s.p.destroy();
  });
});
