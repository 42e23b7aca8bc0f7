// The rules recover decides pending operations by, in-process against the emulator (the CLI test,
// test/faults/killed.test.ts, kills real runs).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Emulator } from "../../emulator";
import { GitbookClient } from "../client";
import { ApiSiteSection } from "../resources/siteSection";
import { ApiCollection } from "../resources/collection";
import { ApiShareLink } from "../resources/shareLink";
import { ApiTeam, paths as teamPaths } from "../resources/team";
import { ApiSite } from "../resources/site";
import { paths as collectionPaths } from "../resources/collection";
import { paths as shareLinkPaths } from "../resources/shareLink";
import { paths as sitePaths } from "../resources/site";
import { paths as siteSectionPaths } from "../resources/siteSection";
import { resolveConfig } from "../config";
import type { Ctx } from "../framework/resource";
import { serializedShim } from "../shim";
import { legacyShim } from "../../test/support/legacyShim";
import { kindOf, openOperations, planRecovery, recoveredCheckpoint, type Exported, type PendingOperation, type Resolution, type StateResource } from "./plan";
import { ApiSiteRedirect } from "../resources/redirectRules";

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

const none = { adopt: new Map<string, string[]>(), drop: new Set<string>() };
const adopting = (urn: string, id: string) => ({ ...none, adopt: new Map([[urn, [id]]]) });
const dropping = (urn: string) => ({ ...none, drop: new Set([urn]) });
const ids = (p: Resolution | undefined) => (p?.action === "undecided" ? p.candidates.map((c) => c.id).sort() : []);
const site = (title: string) => ctx.client.post(sitePaths.sites(org), { body: { title }, schema: ApiSite });
const backdate = (id: string, minutes: number) => (emu.store.sites.get(id)!.createdAt = new Date(Date.now() - minutes * 60_000).toISOString());

/** A team granted read on a site (`fresh`) and on a space; and a site with no grant (`old`). */
async function granted() {
  const team = await ctx.client.put(teamPaths.teams(org), { body: { title: "Writers" }, schema: ApiTeam, idempotent: false });
  const old = await site("Old");
  const fresh = await site("New");
  const spaceId = emu.seeded.spaceIds[0]!;
  const invite = (path: string) => ctx.client.post(path, { body: { role: "read", teams: [team.id] }, idempotent: true });
  await invite(`/orgs/${org}/sites/${fresh.id}/permissions`);
  await invite(`/spaces/${spaceId}/permissions`);
  return { team, old, fresh, spaceId };
}

describe("recover's plan for a killed run's pending creates", () => {
  it("takes nothing on its own: every namesake no resource in state holds is named, whatever GitBook dates it (another stack's, the app's, the run's look alike)", async () => {
    const older = await site("Docs");
    backdate(older.id, 60 * 24);
    const held = await site("Docs");
    const made = await site("Docs");
    const inState: StateResource = { urn: urn("Site", "other"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: held.id, outputs: {} };
    const op = pendingCreate("Site", "docs", { title: "Docs" });
    const [p] = await planRecovery(ctx, checkpoint([op], [inState]), none);
    expect(p).toMatchObject({ action: "undecided", why: expect.stringMatching(/nothing proves which of these \(if any\) it made: another stack, a person in the app or the run itself/) });
    expect(ids(p)).toEqual([older.id, made.id].sort());
    expect(p!.action === "undecided" && p!.candidates.find((c) => c.id === made.id)).toMatchObject({ name: "Docs", createdAt: expect.any(String) });
    // The user's word decides: the one named, or none.
    expect(await planRecovery(ctx, checkpoint([op], [inState]), adopting(op.resource.urn, made.id))).toMatchObject([{ action: "adopt", id: made.id, by: "you" }]);
    expect(await planRecovery(ctx, checkpoint([op], [inState]), dropping(op.resource.urn))).toMatchObject([{ action: "drop", by: "you" }]);
    // Never one state holds, even when named.
    expect(await planRecovery(ctx, checkpoint([op], [inState]), adopting(op.resource.urn, held.id))).toMatchObject([{ action: "undecided", why: expect.stringMatching(/already held by a resource in state/) }]);
  });

  it("proposes a drop only when GitBook holds no namesake that state does not hold; the program's adoptId decides for it", async () => {
    const held = await site("Docs");
    const inState: StateResource = { urn: urn("Site", "other"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: held.id, outputs: {} };
    expect(await planRecovery(ctx, checkpoint([pendingCreate("Site", "docs", { title: "Docs" })], [inState]), none)).toMatchObject([{ action: "drop", by: "proposal" }]);
    const other = await site("Other");
    expect(await planRecovery(ctx, checkpoint([pendingCreate("Site", "docs", { title: "Docs", adoptId: other.id })]), none)).toMatchObject([{ action: "adopt", id: other.id, by: "program" }]);
  });

  it("a kind with no creation time (a collection, a site's section) is named the same way: nothing is proved by a site's age either", async () => {
    const col = await ctx.client.post(collectionPaths.collections(org), { body: { title: "Handbook" }, schema: ApiCollection });
    const spaceId = emu.seeded.spaceIds[0]!;
    const fresh = await site("New");
    const section = await ctx.client.post(siteSectionPaths.sections(org, fresh.id), { body: { spaceId, title: "Guides" }, schema: ApiSiteSection });
    const plan = await planRecovery(ctx, checkpoint([pendingCreate("Collection", "handbook", { title: "Handbook" }), pendingCreate("SiteSection", "guides", { siteId: fresh.id, spaceId, title: "Guides" })]), none);
    expect(plan).toMatchObject([
      { action: "undecided", candidates: [{ id: col.id, name: "Handbook" }] },
      { action: "undecided", candidates: [{ id: section.id }] },
    ]);
  });

  it("proposes to clear a pending update (the resource stays as state has it), and another provider's update; leaves another provider's create to the CLI", async () => {
    const bucket = { urn: "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket", inputs: {} };
    const other: PendingOperation = { type: "creating", resource: bucket };
    const otherUpdate: PendingOperation = { type: "updating", resource: { ...bucket, urn: `${bucket.urn}2` } };
    const update = { ...pendingCreate("Site", "docs", { title: "Docs" }), type: "updating" };
    const plan = await planRecovery(ctx, checkpoint([other, otherUpdate, update]), none);
    expect(plan.map((p) => [p.action, "by" in p ? p.by : undefined])).toEqual([
      ["keep", undefined],
      ["clear", "proposal"],
      ["clear", "proposal"],
    ]);
    expect(plan[0]!.why).toContain("--drop");
    const next = await recoveredCheckpoint(ctx, checkpoint([other, otherUpdate, update]), plan);
    expect(next.deployment.pending_operations).toEqual([other]);
    // The user's --drop: the next up creates it.
    const dropped = await planRecovery(ctx, checkpoint([other]), dropping(bucket.urn));
    expect(dropped.map((p) => p.action)).toEqual(["drop"]);
    expect((await recoveredCheckpoint(ctx, checkpoint([other]), dropped)).deployment.pending_operations).toBeUndefined();
  });

  it("writes the adopted object as the resource: pending entry's references, outputs the definition reads, the shim copied, secret outputs as secrets", async () => {
    const s = await site("Docs");
    const link = await ctx.client.post(shareLinkPaths.shareLinks(org, s.id), { body: { name: "Reviewers" }, schema: ApiShareLink });
    const op = pendingCreate("ShareLink", "link", { siteId: s.id, name: "Reviewers" }, { parent: "urn:stack", dependencies: [urn("Site", "site")], provider: "urn:provider::id" });
    const siteInState: StateResource = { urn: urn("Site", "site"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: s.id, outputs: {} };
    const exported = checkpoint([op], [siteInState]);
    const plan = await planRecovery(ctx, exported, adopting(op.resource.urn, link.id));
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
    const plan = await planRecovery(ctx, exported, adopting(op.resource.urn, s.id));
    await expect(recoveredCheckpoint(ctx, exported, plan)).rejects.toThrow(`Site ${s.id} (for ${op.resource.urn}) has type="${s.type}", which cannot change in place`);
  });

  it("adopting a replacement's create marks the object it replaces for deletion, as the engine does", async () => {
    const old = await site("Docs");
    const made = await site("Docs");
    const op = pendingCreate("Site", "docs", { title: "Docs" });
    const exported = checkpoint([op], [{ ...op.resource, id: old.id, outputs: { title: "Docs" } }]);
    const next = await recoveredCheckpoint(ctx, exported, await planRecovery(ctx, exported, adopting(op.resource.urn, made.id)));
    expect(next.deployment.resources!.map((r) => [r.id, r.delete === true])).toEqual([
      [old.id, true],
      [made.id, false],
    ]);
  });

  it("a Permission, SiteRedirects or AccessList killed mid-create (its next create refuses what is there): what the object holds is named, taken over only by --adopt; dropped when it holds nothing", async () => {
    const { team, old, fresh, spaceId } = await granted();
    const permission = (name: string, target: Record<string, string>) => pendingCreate("Permission", name, { ...target, teamId: team.id, role: "read" });
    const list = (name: string, target: Record<string, string>) => pendingCreate("AccessList", name, { ...target, teams: [{ teamId: team.id, role: "read" }] });
    const redirects = (name: string, siteId: string) => pendingCreate("SiteRedirects", name, { siteId, rules: [{ source: "/a", destination: { url: "https://x.test/a" } }] });
    emu.store.siteRedirects.set("redir_90001", { id: "redir_90001", seq: 90_001, createdAt: new Date().toISOString(), siteId: fresh.id, source: "/a", draft: false, captureWildcard: false, permanent: false, destination: { kind: "external", url: "https://x.test/a" } });
    const ops = [permission("a", { siteId: fresh.id }), permission("b", { siteId: old.id }), list("c", { spaceId }), redirects("d", fresh.id), redirects("e", old.id)];
    const plan = await planRecovery(ctx, checkpoint(ops), none);
    expect(plan).toMatchObject([
      { action: "undecided", candidates: [{ id: `site:${fresh.id}/team:${team.id}` }] },
      { action: "drop", by: "proposal" },
      { action: "undecided", candidates: [{ id: spaceId, note: expect.stringMatching(/exactly the declared ones/) }], why: expect.stringMatching(/--adopt takes them over as the program lists them/) },
      { action: "undecided", candidates: [{ id: fresh.id, note: expect.stringMatching(/^1 redirect rules of site .*, exactly the declared ones: \/a \(created /) }] },
      { action: "drop", by: "proposal" },
    ]);
    expect(await planRecovery(ctx, checkpoint([ops[2]!]), adopting(ops[2]!.resource.urn, spaceId))).toMatchObject([{ action: "adopt", id: spaceId }]);
    // Another SiteRedirects in state holding the site: never adopted, even when named.
    const held: StateResource = { urn: urn("SiteRedirects", "other"), type: "pulumi-nodejs:dynamic/gitbook:SiteRedirects", id: fresh.id, outputs: {}, inputs: { __provider: shim("SiteRedirects") } };
    expect(await planRecovery(ctx, checkpoint([ops[3]!], [held]), adopting(ops[3]!.resource.urn, fresh.id))).toMatchObject([{ action: "undecided", why: expect.stringMatching(/already held/) }]);
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
  function unconfirmedSite(name: string, title: string, sentAt: number, before: string[] | null): StateResource {
    return {
      urn: urn("Site", name),
      custom: true,
      type: "pulumi-nodejs:dynamic/gitbook:Site",
      id: `unconfirmed-create-${sentAt}-abc123`,
      inputs: { __gitbookName: name, __provider: shim("Site"), organizationId: org, title },
      outputs: { __provider: shim("Site"), __gitbookName: name, __gitbookUnconfirmedCreate: { sentAt: new Date(sentAt).toISOString(), before } },
      initErrors: ["Site docs: the create of site \"Docs\" got no answer"],
    };
  }

  it("names what neither the listing before it nor state holds, whatever its date (GitBook's clock five minutes behind); --adopt makes the resource that object in place", async () => {
    const older = await site("Docs");
    const sentAt = Date.now() - 1000;
    const listedBefore = await site("Docs");
    const held = await site("Docs");
    const made = await site("Docs");
    // Dated by a GitBook clock five minutes behind this machine's: before the create was sent.
    emu.store.sites.get(made.id)!.createdAt = new Date(sentAt - 5 * 60_000).toISOString();
    const other: StateResource = { urn: urn("Site", "other"), type: "pulumi-nodejs:dynamic/gitbook:Site", id: held.id, outputs: {} };
    const r = unconfirmedSite("docs", "Docs", sentAt, [older.id, listedBefore.id]);
    const exported = checkpoint([], [other, r]);
    const [p] = await planRecovery(ctx, exported, none);
    expect(p).toMatchObject({ op: "unconfirmed", urn: r.urn, action: "undecided", candidates: [{ id: made.id, note: expect.stringMatching(/absent from the listing taken just before the create was sent/) }] });
    expect(openOperations(exported)).toEqual([`unconfirmed ${r.urn}`]);
    const plan = await planRecovery(ctx, exported, adopting(r.urn, made.id));
    const next = await recoveredCheckpoint(ctx, exported, plan);
    const resources = next.deployment.resources!;
    expect(resources.map((x) => x.urn)).toEqual([other.urn, r.urn]);
    const now = resources[1]!;
    expect(now.id).toBe(made.id);
    expect(now.initErrors).toBeUndefined();
    expect(now.outputs).toMatchObject({ title: "Docs", __provider: shim("Site") });
    expect(now.outputs!.__gitbookUnconfirmedCreate).toBeUndefined();
    expect(openOperations(next)).toEqual([]);
  });

  it("proposes to remove the resource from state when GitBook holds nothing it made (the next up creates it); unchanged while undecided", async () => {
    const older = await site("Docs");
    const r = unconfirmedSite("docs", "Docs", Date.now() - 1000, [older.id]);
    const exported = checkpoint([], [r]);
    const plan = await planRecovery(ctx, exported, none);
    expect(plan).toMatchObject([{ op: "unconfirmed", action: "drop", by: "proposal" }]);
    expect((await recoveredCheckpoint(ctx, exported, plan)).deployment.resources).toEqual([]);
    await site("Docs");
    const undecided = await planRecovery(ctx, exported, none);
    expect(undecided).toMatchObject([{ op: "unconfirmed", action: "undecided" }]);
    expect((await recoveredCheckpoint(ctx, exported, undecided)).deployment.resources).toEqual([r]);
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
      outputs: { __provider: shim("SiteSection"), __gitbookUnconfirmedCreate: { sentAt: new Date(sentAt).toISOString(), before: [] } },
    };
    await ctx.client.delete(sitePaths.site(org, gone.id));
    const plan = await planRecovery(ctx, checkpoint([], [r, unconfirmedSite("docs", "Docs", sentAt, [])]), none);
    expect(plan).toMatchObject([
      { urn: r.urn, op: "unconfirmed", action: "undecided", candidates: [] },
      { op: "unconfirmed", action: "drop" },
    ]);
    expect((plan[0] as { why: string }).why).toMatch(/could not be looked for \(GitBook API 404 .*\)\. What it was made in was not found: if it was deleted, so was anything made in it, and --drop it/);
  });

  it("does not count what its record lists as held by state when it decides another pending create", async () => {
    const made = await site("Guides");
    // The unconfirmed create's listing before it saw "Guides" (another create of the same run, killed after).
    const r = unconfirmedSite("docs", "Docs", Date.now() - 1000, [made.id]);
    const op = pendingCreate("Site", "guides", { title: "Guides" });
    const plan = await planRecovery(ctx, checkpoint([op], [r]), none);
    expect(plan).toMatchObject([{ op: "creating", action: "undecided", candidates: [{ id: made.id }] }, { op: "unconfirmed", action: "drop" }]);
  });
});

describe("recover's plan for an update that may have made an old path's redirect rule", () => {
  /** A published site with a section whose path moved from guides to handbook, and the rule such a move makes. */
  async function moved() {
    const s = await site("Docs");
    const spaceId = emu.seeded.spaceIds[0]!;
    const sec = await ctx.client.post(siteSectionPaths.sections(org, s.id), { body: { spaceId, title: "Guides", path: "handbook" }, schema: ApiSiteSection });
    const section: StateResource = {
      urn: urn("SiteSection", "guides"),
      custom: true,
      type: "pulumi-nodejs:dynamic/gitbook:SiteSection",
      id: sec.id,
      inputs: { __provider: shim("SiteSection"), organizationId: org, siteId: s.id, spaceId, title: "Guides", path: "guides", redirectOldPath: true },
      outputs: { __provider: shim("SiteSection"), organizationId: org, siteId: s.id, spaceId, title: "Guides", path: "guides", redirectOldPath: true },
    };
    const rule = (id: string, source: string) =>
      emu.store.siteRedirects.set(id, { id, seq: 1, createdAt: new Date().toISOString(), siteId: s.id, source, draft: false, captureWildcard: true, permanent: true, destination: { kind: "external", url: "https://docs.example/handbook" } });
    const update: PendingOperation = { type: "updating", resource: { ...section, inputs: { ...section.inputs, path: "handbook", oldPathRedirects: [{ path: "guides" }] } } };
    return { section, update, rule };
  }

  it("killed after the rule's create: names the rule, recorded as the resource's only by --adopt (no rule: the clear is proposed)", async () => {
    const { section, update, rule } = await moved();
    expect(await planRecovery(ctx, checkpoint([update], [section]), none)).toMatchObject([{ op: "updating", action: "drop", by: "proposal" }]);
    rule("redir_1", "/guides/*");
    // A rule of another source, or shaped otherwise, is no candidate.
    rule("redir_2", "/other/*");
    const [p] = await planRecovery(ctx, checkpoint([update], [section]), none);
    expect(p).toMatchObject({ op: "updating", action: "undecided", candidates: [{ id: "redir_1", name: "/guides/* -> https://docs.example/handbook" }], why: expect.stringMatching(/the redirect rule from its old path "guides"/) });
    const exported = checkpoint([update], [section]);
    expect(openOperations(exported)).toEqual([`updating ${section.urn}`]);
    const next = await recoveredCheckpoint(ctx, exported, await planRecovery(ctx, exported, adopting(section.urn, "redir_1")));
    expect(next.deployment.pending_operations).toBeUndefined();
    expect(next.deployment.resources![0]!.outputs).toMatchObject({ oldPathRedirectRules: { guides: { id: "redir_1", source: "/guides/*" } } });
    // Named by --adopt though its pending update is gone (a blind up since): the same.
    const after = checkpoint([], [{ ...section, outputs: { ...section.outputs, path: "handbook", oldPathRedirects: [{ path: "guides", status: "not created" }] } }]);
    expect(openOperations(after)).toEqual([]);
    expect(await planRecovery(ctx, after, adopting(section.urn, "redir_1"))).toMatchObject([{ op: "unrecorded", action: "adopt", id: "redir_1" }]);
  });

  it("a rule whose create was unconfirmed: named, never taken by its date; none there and the record goes (the next up makes it)", async () => {
    const { section, rule } = await moved();
    const record = { guides: { id: "", source: "/guides/*", unconfirmed: { sentAt: new Date().toISOString(), before: [] } } };
    const r = { ...section, outputs: { ...section.outputs, path: "handbook", oldPathRedirects: [{ path: "guides", status: "not confirmed" }], oldPathRedirectRules: record } };
    expect(openOperations(checkpoint([], [r]))).toEqual([`unrecorded ${r.urn}`]);
    const dropped = await planRecovery(ctx, checkpoint([], [r]), none);
    expect(dropped).toMatchObject([{ op: "unrecorded", action: "drop", by: "proposal" }]);
    expect((await recoveredCheckpoint(ctx, checkpoint([], [r]), dropped)).deployment.resources![0]!.outputs!.oldPathRedirectRules).toEqual({});
    rule("redir_1", "/guides/*");
    expect(await planRecovery(ctx, checkpoint([], [r]), none)).toMatchObject([{ op: "unrecorded", action: "undecided", candidates: [{ id: "redir_1" }] }]);
  });
});
