// The rules recover decides pending operations by, in-process against the emulator (the CLI test,
// test/faults/killed.test.ts, kills real runs).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Emulator } from "../../emulator";
import { ApiSiteSection, GitbookClient } from "../client";
import { ApiCollection } from "../resources/collection";
import { ApiShareLink } from "../resources/shareLink";
import { ApiTeam, paths as teamPaths } from "../resources/team";
import { ApiSite } from "../client";
import { paths as collectionPaths } from "../resources/collection";
import { paths as shareLinkPaths } from "../resources/shareLink";
import { paths as sitePaths } from "../resources/site";
import { paths as siteSectionPaths } from "../resources/siteSection";
import { resolveConfig } from "../config";
import type { Ctx } from "../framework/resource";
import { serializedShim } from "../shim";
import { legacyShim } from "../../test/support/legacyShim";
import { kindOf, planRecovery, recoveredCheckpoint, type Exported, type PendingOperation, type StateResource } from "./plan";

let emu: Emulator;
let ctx: Ctx;
let org: string;

beforeEach(async () => {
  emu = await Emulator.start();
  org = emu.seeded.organizationId;
  ctx = { client: new GitbookClient({ token: emu.token, apiUrl: emu.url }), config: resolveConfig({ token: emu.token, apiUrl: emu.url }, {}) };
});
afterEach(async () => {
  await ctx.client.close();
  await emu.close();
});

/** What the serialized shim looks like in state (only what kindOf reads). */
const shim = (kind: string) => `exports.handler = __f0;\nwith({ kind: "${kind}", this: undefined }) { require("pulumi-gitbook/impl").dispatch(1, kind, "create", []) }`;
const urn = (kind: string, name: string) => `urn:pulumi:dev::docs::pulumi-nodejs:dynamic/gitbook:${kind}::${name}`;

function pendingCreate(kind: string, name: string, inputs: Record<string, unknown>, extra: Partial<StateResource> = {}): PendingOperation {
  return {
    type: "creating",
    resource: { urn: urn(kind, name), custom: true, type: `pulumi-nodejs:dynamic/gitbook:${kind}`, inputs: { __gitbookName: name, __provider: shim(kind), organizationId: org, ...inputs }, ...extra },
  };
}

function checkpoint(pending: PendingOperation[], resources: StateResource[] = []): Exported {
  return { version: 3, deployment: { manifest: { time: new Date().toISOString() }, resources, pending_operations: pending } };
}

const none = { adopt: new Map<string, string>(), drop: new Set<string>() };
const site = (title: string) => ctx.client.post(sitePaths.sites(org), { body: { title }, schema: ApiSite });
const backdate = (id: string, minutes: number) => (emu.store.sites.get(id)!.createdAt = new Date(Date.now() - minutes * 60_000).toISOString());

/**
 * A team granted read, since a run began, on a site made since (`fresh`) and on a space; and a site
 * made before the run (`old`, no grant).
 */
async function grantedSinceStart() {
  const team = await ctx.client.put(teamPaths.teams(org), { body: { title: "Writers" }, schema: ApiTeam, idempotent: false });
  const old = await site("Old");
  backdate(old.id, 10);
  const runStart = Date.now() - 1000;
  const fresh = await site("New");
  const spaceId = emu.seeded.spaceIds[0]!;
  const invite = (path: string) => ctx.client.post(path, { body: { role: "read", teams: [team.id] }, idempotent: true });
  await invite(`/orgs/${org}/sites/${fresh.id}/permissions`);
  await invite(`/spaces/${spaceId}/permissions`);
  return { team, old, runStart, fresh, spaceId };
}

describe("recover's plan", () => {
  it("adopts the one unheld object created since the run began, never an older namesake or one state holds", async () => {
    const older = await site("Docs");
    backdate(older.id, 10);
    const held = await site("Docs");
    const runStart = Date.now() - 1000;
    const made = await site("Docs");
    const inState: StateResource = { urn: urn("Site", "other"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: held.id, outputs: {} };
    const plan = await planRecovery(ctx, checkpoint([pendingCreate("Site", "docs", { title: "Docs" })], [inState]), { ...none, runEnd: Date.now(), runStart });
    expect(plan).toMatchObject([{ action: "adopt", id: made.id }]);
  });

  it("never adopts a namesake made after the run could create no more (in the app, the next morning); without that bound, adopts nothing by date", async () => {
    const runStart = Date.now() - 2 * 24 * 3600_000;
    const runEnd = runStart + 60_000;
    const later = await site("Docs");
    const op = pendingCreate("Site", "docs", { title: "Docs" });
    expect(await planRecovery(ctx, checkpoint([op]), { ...none, runStart, runEnd })).toMatchObject([{ action: "drop", why: expect.stringMatching(/or after it could create no more/) }]);
    // The run's own, made in its window, is taken beside it.
    const made = await site("Docs");
    emu.store.sites.get(made.id)!.createdAt = new Date(runStart + 5000).toISOString();
    expect(await planRecovery(ctx, checkpoint([op]), { ...none, runStart, runEnd })).toMatchObject([{ action: "adopt", id: made.id }]);
    // When the run stopped is unknown (not a file backend, no --until): named, never taken.
    const [p] = await planRecovery(ctx, checkpoint([op]), { ...none, runStart });
    expect(p).toMatchObject({ action: "undecided", why: expect.stringMatching(/give it with --until/) });
    expect((p as { candidates: { id: string }[] }).candidates.map((c) => c.id).sort()).toEqual([later.id, made.id].sort());
  });

  it("drops a pending create whose only namesakes predate the run: the next up creates it", async () => {
    const older = await site("Docs");
    backdate(older.id, 10);
    const plan = await planRecovery(ctx, checkpoint([pendingCreate("Site", "docs", { title: "Docs" })]), { ...none, runEnd: Date.now(), runStart: Date.now() });
    expect(plan).toMatchObject([{ action: "drop" }]);
  });

  it("stops on two objects created since the run began, naming both", async () => {
    const runStart = Date.now() - 1000;
    const a = await site("Docs");
    const b = await site("Docs");
    const [p] = await planRecovery(ctx, checkpoint([pendingCreate("Site", "docs", { title: "Docs" })]), { ...none, runEnd: Date.now(), runStart });
    expect(p).toMatchObject({ action: "undecided" });
    expect(p!.action === "undecided" && p!.candidates.map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
  });

  it("never adopts by guess a kind with no creation time: lists the candidates; --adopt or --drop decides", async () => {
    const col = await ctx.client.post(collectionPaths.collections(org), { body: { title: "Handbook" }, schema: ApiCollection });
    const op = pendingCreate("Collection", "handbook", { title: "Handbook" });
    const [p] = await planRecovery(ctx, checkpoint([op]), { ...none, runEnd: Date.now(), runStart: Date.now() - 60_000 });
    expect(p).toMatchObject({ action: "undecided", candidates: [{ id: col.id }] });
    expect(await planRecovery(ctx, checkpoint([op]), { ...none, drop: new Set([op.resource.urn]) })).toMatchObject([{ action: "drop" }]);
    expect(await planRecovery(ctx, checkpoint([op]), { ...none, adopt: new Map([[op.resource.urn, col.id]]) })).toMatchObject([{ action: "adopt", id: col.id }]);
  });

  it("takes a site's section (no creation time) when the site itself was made after the run began, never in an older site", async () => {
    const spaceId = emu.seeded.spaceIds[0]!;
    const sectionIn = (siteId: string) => ctx.client.post(siteSectionPaths.sections(org, siteId), { body: { spaceId, title: "Guides" }, schema: ApiSiteSection });
    const old = await site("Old");
    backdate(old.id, 10);
    const runStart = Date.now() - 1000;
    const fresh = await site("New");
    const [inOld, inNew] = [await sectionIn(old.id), await sectionIn(fresh.id)];
    const op = (siteId: string, name: string) => pendingCreate("SiteSection", name, { siteId, spaceId, title: "Guides" });
    const plan = await planRecovery(ctx, checkpoint([op(old.id, "a"), op(fresh.id, "b")]), { ...none, runEnd: Date.now(), runStart });
    expect(plan).toMatchObject([
      { action: "undecided", candidates: [{ id: inOld.id }] },
      { action: "adopt", id: inNew.id },
    ]);
  });

  it("without the run's start, a kind with a creation time is not adopted either", async () => {
    await site("Docs");
    expect(await planRecovery(ctx, checkpoint([pendingCreate("Site", "docs", { title: "Docs" })]), none)).toMatchObject([{ action: "undecided" }]);
  });

  it("clears a pending update (the resource stays as state has it), and another provider's update; leaves another provider's create to the CLI", async () => {
    const bucket = { urn: "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket", inputs: {} };
    const other: PendingOperation = { type: "creating", resource: bucket };
    const otherUpdate: PendingOperation = { type: "updating", resource: { ...bucket, urn: `${bucket.urn}2` } };
    const update = { ...pendingCreate("Site", "docs", { title: "Docs" }), type: "updating" };
    const plan = await planRecovery(ctx, checkpoint([other, otherUpdate, update]), none);
    expect(plan.map((p) => p.action)).toEqual(["keep", "clear", "clear"]);
    expect(plan[0]!.why).toContain("--drop");
    const next = await recoveredCheckpoint(ctx, checkpoint([other, otherUpdate, update]), plan);
    expect(next.deployment.pending_operations).toEqual([other]);
    // The user's --drop: the next up creates it.
    const dropped = await planRecovery(ctx, checkpoint([other]), { ...none, drop: new Set([bucket.urn]) });
    expect(dropped.map((p) => p.action)).toEqual(["drop"]);
    expect((await recoveredCheckpoint(ctx, checkpoint([other]), dropped)).deployment.pending_operations).toBeUndefined();
  });

  it("writes the adopted object as the resource: pending entry's references, outputs the definition reads, the shim copied, secret outputs as secrets", async () => {
    const s = await site("Docs");
    const runStart = Date.now() - 1000;
    const link = await ctx.client.post(shareLinkPaths.shareLinks(org, s.id), { body: { name: "Reviewers" }, schema: ApiShareLink });
    const op = pendingCreate("ShareLink", "link", { siteId: s.id, name: "Reviewers" }, { parent: "urn:stack", dependencies: [urn("Site", "site")], provider: "urn:provider::id" });
    const siteInState: StateResource = { urn: urn("Site", "site"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: s.id, outputs: {} };
    const exported = checkpoint([op], [siteInState]);
    const plan = await planRecovery(ctx, exported, { ...none, runEnd: Date.now(), runStart });
    expect(plan).toMatchObject([{ action: "adopt", id: link.id }]);
    const next = await recoveredCheckpoint(ctx, exported, plan);
    expect(next.deployment.pending_operations).toBeUndefined();
    const r = next.deployment.resources!.at(-1)!;
    expect(r).toMatchObject({ urn: op.resource.urn, id: link.id, parent: "urn:stack", dependencies: [urn("Site", "site")], provider: "urn:provider::id", inputs: op.resource.inputs });
    expect(r.outputs).toMatchObject({ __provider: shim("ShareLink"), name: "Reviewers", siteId: s.id, active: true, createdAt: link.createdAt });
    expect(r.outputs!.url).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(link.urls?.published ?? "") });
    expect(r.outputs).not.toHaveProperty("__gitbookName");
  });

  it("refuses to adopt an object whose fixed fields differ from the program's: the next up would replace it", async () => {
    const s = await site("Docs");
    const op = pendingCreate("Site", "docs", { title: "Docs", type: "basic" });
    const exported = checkpoint([op]);
    const plan = await planRecovery(ctx, exported, { ...none, adopt: new Map([[op.resource.urn, s.id]]) });
    await expect(recoveredCheckpoint(ctx, exported, plan)).rejects.toThrow(`Site ${s.id} (for ${op.resource.urn}) has type="${s.type}", which cannot change in place`);
  });

  it("adopting a replacement's create marks the object it replaces for deletion, as the engine does", async () => {
    const old = await site("Docs");
    backdate(old.id, 10);
    const runStart = Date.now() - 1000;
    const made = await site("Docs");
    const op = pendingCreate("Site", "docs", { title: "Docs" });
    const exported = checkpoint([op], [{ ...op.resource, id: old.id, outputs: { title: "Docs" } }]);
    const next = await recoveredCheckpoint(ctx, exported, await planRecovery(ctx, exported, { ...none, runEnd: Date.now(), runStart }));
    expect(next.deployment.resources!.map((r) => [r.id, r.delete === true])).toEqual([
      [old.id, true],
      [made.id, false],
    ]);
  });

  it("resolves a Permission whose invite went through before the kill: adopted on a site made since the run began, named elsewhere, dropped when no grant is there", async () => {
    // The next up's create would refuse such a grant as made elsewhere: dropping the pending create left the run stuck.
    const { team, old, runStart, fresh, spaceId } = await grantedSinceStart();
    const op = (name: string, target: Record<string, string>) => pendingCreate("Permission", name, { ...target, teamId: team.id, role: "read" });
    const plan = await planRecovery(ctx, checkpoint([op("a", { siteId: fresh.id }), op("b", { spaceId }), op("c", { siteId: old.id })]), { ...none, runEnd: Date.now(), runStart });
    expect(plan).toMatchObject([
      { action: "adopt", id: `site:${fresh.id}/team:${team.id}` },
      { action: "undecided", candidates: [{ id: `space:${spaceId}/team:${team.id}` }] },
      { action: "drop" },
    ]);
  });

  it("resolves a SiteRedirects killed mid-create (its next create refuses any rule): adopted when the rules are exactly the declared ones, each dated since the run began; named otherwise", async () => {
    const [a, b, c, d] = [await site("Site A"), await site("Site B"), await site("Site C"), await site("Site D")];
    const runStart = Date.now() - 1000;
    let seq = 90_000;
    const rule = (siteId: string, source: string, url: string, minutesAgo = 0) =>
      emu.store.siteRedirects.set(`redir_${++seq}`, { id: `redir_${seq}`, seq, createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(), siteId, source, draft: false, captureWildcard: false, permanent: false, destination: { kind: "external", url } });
    rule(a.id, "/a", "https://x.test/a");
    rule(b.id, "/a", "https://x.test/a", 10);
    rule(c.id, "/a", "https://x.test/other");
    const op = (name: string, siteId: string) => pendingCreate("SiteRedirects", name, { siteId, rules: [{ source: "/a", destination: { url: "https://x.test/a" } }] });
    // The Site resources hold the sites' IDs: no SiteRedirects does.
    const sites = [a, b, c, d].map((s): StateResource => ({ urn: urn("Site", s.id), type: "pulumi-nodejs:dynamic/gitbook:Site", id: s.id, outputs: {}, inputs: { __provider: shim("Site") } }));
    const plan = await planRecovery(ctx, checkpoint([op("a", a.id), op("b", b.id), op("c", c.id), op("d", d.id)], sites), { ...none, runEnd: Date.now(), runStart });
    expect(plan).toMatchObject([
      { action: "adopt", id: a.id, why: expect.stringMatching(/exactly the declared ones, each created after the run began .* and before it could create no more/) },
      { action: "undecided", candidates: [{ id: b.id }], why: expect.stringMatching(/created before the run began .* or after it could create no more .*--adopt takes them over/) },
      { action: "undecided", candidates: [{ id: c.id }], why: expect.stringMatching(/not exactly what the program declares/) },
      { action: "drop" },
    ]);
    // Another SiteRedirects in state holding the site: never adopted.
    const held: StateResource = { urn: urn("SiteRedirects", "other"), type: "pulumi-nodejs:dynamic/gitbook:SiteRedirects", id: a.id, outputs: {}, inputs: { __provider: shim("SiteRedirects") } };
    expect(await planRecovery(ctx, checkpoint([op("a", a.id)], [held]), { ...none, runEnd: Date.now(), runStart })).toMatchObject([{ action: "undecided", why: expect.stringMatching(/already held by another SiteRedirects/) }]);
  });

  it("resolves an AccessList killed mid-create: adopted when its grants are exactly the declared ones on a site made since the run began, named elsewhere (grants carry no creation time)", async () => {
    const { team, runStart, fresh, spaceId } = await grantedSinceStart();
    const op = (name: string, target: Record<string, string>) => pendingCreate("AccessList", name, { ...target, teams: [{ teamId: team.id, role: "read" }] });
    const plan = await planRecovery(ctx, checkpoint([op("a", { siteId: fresh.id }), op("b", { spaceId })]), { ...none, runEnd: Date.now(), runStart });
    expect(plan).toMatchObject([
      { action: "adopt", id: fresh.id },
      { action: "undecided", candidates: [{ id: spaceId }], why: expect.stringMatching(/carry no creation time.*team .* \(read\)/) },
    ]);
  });

  it("knows a gitbook resource by its type or its serialized shim, and nothing else", () => {
    expect(kindOf({ urn: "u", type: "pulumi-nodejs:dynamic/gitbook:Team", inputs: { __provider: shim("Team") } })).toBe("Team");
    expect(kindOf({ urn: "u", type: "pulumi-nodejs:dynamic:Resource", inputs: { __provider: shim("Space") } })).toBe("Space");
    // The shim this version writes, and the SDK-serialized one earlier versions wrote.
    expect(kindOf({ urn: "u", type: "pulumi-nodejs:dynamic:Resource", inputs: { __provider: serializedShim("Collection") } })).toBe("Collection");
    expect(kindOf({ urn: "u", type: "pulumi-nodejs:dynamic:Resource", inputs: { __provider: legacyShim("Collection") } })).toBe("Collection");
    expect(kindOf({ urn: "u", type: "pulumi-nodejs:dynamic:Resource", inputs: { __provider: "exports.handler = somethingElse" } })).toBeUndefined();
  });
});

describe("recover's plan for an unconfirmed create (its answer lost, and the looking for it failed)", () => {
  /** A Site in state as the engine keeps an unconfirmed create: a placeholder ID and the record (state.ts). */
  function unconfirmedSite(name: string, title: string, sentAt: number, before: string[] | null, settledBy = Date.now()): StateResource {
    return {
      urn: urn("Site", name),
      custom: true,
      type: "pulumi-nodejs:dynamic/gitbook:Site",
      id: `unconfirmed-create-${sentAt}-abc123`,
      inputs: { __gitbookName: name, __provider: shim("Site"), organizationId: org, title },
      outputs: {
        __provider: shim("Site"),
        __gitbookName: name,
        __gitbookUnconfirmedCreate: { sentAt: new Date(sentAt).toISOString(), settledBy: new Date(settledBy).toISOString(), before },
      },
      initErrors: ["Site docs: the create of site \"Docs\" got no answer"],
    };
  }

  it("adopts the one object made since the create was sent, never one that existed before it (whatever its date) or one state holds; the resource becomes it in place", async () => {
    const older = await site("Docs");
    const sentAt = Date.now() - 1000;
    // Made by another client after the listing before the create, and listed there: not this create's.
    const listedBefore = await site("Docs");
    const held = await site("Docs");
    const made = await site("Docs");
    const other: StateResource = { urn: urn("Site", "other"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: held.id, outputs: {} };
    const r = unconfirmedSite("docs", "Docs", sentAt, [older.id, listedBefore.id]);
    const exported = checkpoint([], [other, r]);
    const plan = await planRecovery(ctx, exported, none);
    expect(plan).toMatchObject([{ op: "unconfirmed", urn: r.urn, action: "adopt", id: made.id }]);
    const next = await recoveredCheckpoint(ctx, exported, plan);
    const resources = next.deployment.resources!;
    expect(resources.map((x) => x.urn)).toEqual([other.urn, r.urn]);
    const now = resources[1]!;
    expect(now.id).toBe(made.id);
    expect(now.initErrors).toBeUndefined();
    expect(now.outputs).toMatchObject({ title: "Docs", __provider: shim("Site") });
    expect(now.outputs!.__gitbookUnconfirmedCreate).toBeUndefined();
  });

  it("removes the resource from state when GitBook holds nothing it made (the next up creates it)", async () => {
    const older = await site("Docs");
    const r = unconfirmedSite("docs", "Docs", Date.now() - 1000, [older.id]);
    const exported = checkpoint([], [r]);
    const plan = await planRecovery(ctx, exported, none);
    expect(plan).toMatchObject([{ op: "unconfirmed", action: "drop" }]);
    expect((await recoveredCheckpoint(ctx, exported, plan)).deployment.resources).toEqual([]);
  });

  it("names the candidates when two were made since it was sent, and changes nothing", async () => {
    const sentAt = Date.now() - 1000;
    await site("Docs");
    await site("Docs");
    const r = unconfirmedSite("docs", "Docs", sentAt, []);
    const exported = checkpoint([], [r]);
    const plan = await planRecovery(ctx, exported, none);
    expect(plan).toMatchObject([{ op: "unconfirmed", action: "undecided" }]);
    expect((plan[0] as { candidates: unknown[] }).candidates).toHaveLength(2);
    expect((await recoveredCheckpoint(ctx, exported, plan)).deployment.resources).toEqual([r]);
  });

  it("never takes an object created after the create could no longer take effect: one made in the app since is not adopted, whatever the listing before", async () => {
    // The create made nothing (dropped before GitBook saw it); two days later a namesake is made in the app.
    const sentAt = Date.now() - 2 * 24 * 3600_000;
    const later = await site("Docs");
    const r = unconfirmedSite("docs", "Docs", sentAt, [], sentAt + 2000);
    expect(await planRecovery(ctx, checkpoint([], [r]), none)).toMatchObject([{ op: "unconfirmed", action: "drop" }]);
    // The create's own object, made in its window, is taken beside the later namesake.
    const made = await site("Docs");
    emu.store.sites.get(made.id)!.createdAt = new Date(sentAt + 500).toISOString();
    const plan = await planRecovery(ctx, checkpoint([], [r]), none);
    expect(plan).toMatchObject([{ op: "unconfirmed", action: "adopt", id: made.id }]);
    expect(plan[0]!.action === "adopt" && plan[0]!.id).not.toBe(later.id);
    // One made just after the window (within the clocks' margin) is named, not taken; nor is a record without settledBy trusted.
    emu.store.sites.get(later.id)!.createdAt = new Date(sentAt + 2000 + 30_000).toISOString();
    ctx.client.dropCachedLists(); // recover runs in a process of its own: nothing listed before is kept
    expect(await planRecovery(ctx, checkpoint([], [r]), none)).toMatchObject([{ op: "unconfirmed", action: "undecided" }]);
    const old = { ...r, outputs: { ...r.outputs, __gitbookUnconfirmedCreate: { sentAt: new Date(sentAt).toISOString(), before: [] } } };
    expect(await planRecovery(ctx, checkpoint([], [old]), none)).toMatchObject([{ op: "unconfirmed", action: "undecided" }]);
  });

  it("a kind GitBook gives no creation time (a section): never adopted by proof, even the one object neither listed before it nor held; named for --adopt or --drop", async () => {
    const docs = await site("Docs");
    backdate(docs.id, 10);
    const spaceId = emu.seeded.spaceIds[0]!;
    const section = (title: string) => ctx.client.post(siteSectionPaths.sections(org, docs.id), { body: { spaceId, title }, schema: ApiSiteSection });
    const existing = await section("Guides");
    const sentAt = Date.now() - 1000;
    // Made by the create, or by the app since: nothing in GitBook's answer tells them apart.
    const made = await section("Guides");
    const r: StateResource = {
      urn: urn("SiteSection", "guides"),
      custom: true,
      type: "pulumi-nodejs:dynamic/gitbook:SiteSection",
      id: `unconfirmed-create-${sentAt}-abc123`,
      inputs: { __gitbookName: "guides", __provider: shim("SiteSection"), organizationId: org, siteId: docs.id, spaceId, title: "Guides" },
      outputs: { __provider: shim("SiteSection"), __gitbookUnconfirmedCreate: { sentAt: new Date(sentAt).toISOString(), settledBy: new Date().toISOString(), before: [existing.id] } },
    };
    const plan = await planRecovery(ctx, checkpoint([], [r]), none);
    expect(plan).toMatchObject([{ op: "unconfirmed", action: "undecided", candidates: [{ id: made.id }] }]);
    expect((plan[0] as { why: string }).why).toMatch(/site sections carry no creation time, so nothing tells the one the create made \(if any\) from one made in the app/);
    // What existed before it is never even named.
    expect(JSON.stringify(plan)).not.toContain(existing.id);
    // --adopt decides.
    expect(await planRecovery(ctx, checkpoint([], [r]), { ...none, adopt: new Map([[r.urn, made.id]]) })).toMatchObject([{ op: "unconfirmed", action: "adopt", id: made.id }]);
  });

  it("a resource whose looking fails is named with the fix, and the others are still decided: a section of a site deleted since (404) is for --drop", async () => {
    const gone = await site("Gone");
    const spaceId = emu.seeded.spaceIds[0]!;
    const sentAt = Date.now() - 1000;
    const r: StateResource = {
      urn: urn("SiteSection", "orphan"),
      custom: true,
      type: "pulumi-nodejs:dynamic/gitbook:SiteSection",
      id: `unconfirmed-create-${sentAt}-abc123`,
      inputs: { __gitbookName: "orphan", __provider: shim("SiteSection"), organizationId: org, siteId: gone.id, spaceId },
      outputs: { __provider: shim("SiteSection"), __gitbookUnconfirmedCreate: { sentAt: new Date(sentAt).toISOString(), settledBy: new Date().toISOString(), before: [] } },
    };
    await ctx.client.delete(sitePaths.site(org, gone.id));
    const made = await site("Docs");
    const plan = await planRecovery(ctx, checkpoint([], [r, unconfirmedSite("docs", "Docs", sentAt, [])]), none);
    expect(plan).toMatchObject([
      { urn: r.urn, op: "unconfirmed", action: "undecided", candidates: [] },
      { op: "unconfirmed", action: "adopt", id: made.id },
    ]);
    expect((plan[0] as { why: string }).why).toMatch(/could not be looked for \(GitBook API 404 .*\)\. What it was created in was not found: if it was deleted, so was anything the create made in it, and --drop it/);
  });

  it("does not count what its record lists as held by state when it decides another pending create", async () => {
    const sentAt = Date.now() - 1000;
    const made = await site("Guides");
    // The unconfirmed create's listing before it saw "Guides" (another create of the same run, killed after).
    const r = unconfirmedSite("docs", "Docs", sentAt, [made.id]);
    const plan = await planRecovery(ctx, checkpoint([pendingCreate("Site", "guides", { title: "Guides" })], [r]), { ...none, runEnd: Date.now(), runStart: sentAt - 1000 });
    expect(plan).toMatchObject([{ op: "creating", action: "adopt", id: made.id }, { op: "unconfirmed", action: "drop" }]);
  });
});
