import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GitbookClient } from "../client";
import { UNKNOWN } from "../framework/check";
import { startProviderEnv, rejectsAtCheck, type BadInput, type ProviderEnv, type State } from "../../test/support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());
afterEach(() => vi.restoreAllMocks());

const SPACES = /\/orgs\/:org\/spaces$/;
const ICON = "https://cdn.acme.test/icon.png";

const live = (id: string) => env.emu.store.spaces.get(id)!;
const created = async (args: Record<string, unknown> = {}): Promise<State> => (await env.up("Space", { title: "Handbook", ...args })).state;
const collection = async (title: string): Promise<string> => (await env.up("Collection", { title })).state.id;

/** What the provider sent, observed at the client (the emulator logs no bodies): `METHOD path` and body. */
function spySent(): () => [string, unknown][] {
  const spy = vi.spyOn(GitbookClient.prototype, "request");
  return () => spy.mock.calls.filter((c) => c[0] !== "GET").map((c) => [`${c[0]} ${c[1]}`, (c[2] as { body?: unknown } | undefined)?.body]);
}

describe("check", () => {
  const bad: BadInput[] = [
    // "" is a title GitBook's spec allows (no minLength): see importer/adopt.test.ts.
    ["title", { title: "t".repeat(51) }, /^title must be at most 50 characters/],
    ["emoji", { emoji: "x" }, /^emoji must be one emoji, as the character \(🎉\) or its Unicode codepoints in hex \(1f389\)/],
    ["emoji", { emoji: `${"1f389-".repeat(9)}1f389` }, /^emoji must be at most 50 characters/],
    ["icon", { icon: "ftp://cdn.acme.test/i.png" }, /^icon must be an absolute http\(s\) URL/],
    ["icon", { icon: `https://cdn.acme.test/${"i".repeat(2030)}` }, /^icon must be at most 2048 characters/],
    ["icon", { emoji: "🎉", icon: ICON }, /^icon cannot be declared with emoji/],
    ["parent", { parent: "" }, /^parent must not be empty/],
    ["language", { language: "xx" }, /^language must be one of en, fr, de/],
    ["editMode", { editMode: "draft" }, /^editMode must be live or locked/],
    ["defaultLevel", { defaultLevel: "owner" }, /^defaultLevel must be one of admin, create, review, edit, comment, read, inherit, or null for no access/],
  ];
  rejectsAtCheck(() => env, "Space", { title: "Handbook" }, bad);

  it("requires a title, and passes on only what the program declares", async () => {
    expect((await env.check("Space", {})).failures).toEqual([{ property: "title", reason: "title is required" }]);
    expect((await env.check("Space", { title: "Handbook", defaultLevel: null })).inputs).toEqual({ organizationId: env.org, title: "Handbook", defaultLevel: null });
  });

  it("leaves emoji and icon to apply when one is not known yet", async () => {
    expect((await env.check("Space", { title: "Handbook", emoji: UNKNOWN, icon: ICON })).failures).toBeUndefined();
  });
});

describe("create", () => {
  it("sends one POST with the title alone when that is all the program declares", async () => {
    const sent = spySent();
    const s = await created();
    expect(sent()).toEqual([[`POST /orgs/${env.org}/spaces`, { title: "Handbook" }]]);
    expect(live(s.id)).toMatchObject({ title: "Handbook", emoji: "", editMode: "live", defaultLevel: "inherit" });
    expect(s.outs).toEqual({
      organizationId: env.org,
      title: "Handbook",
      editMode: "live",
      visibility: "private",
      urls: { location: `${env.emu.url}/v1/spaces/${s.id}`, app: expect.stringContaining(s.id) },
      createdAt: live(s.id).createdAt,
      // Which live fields the program declares (none): refresh hands back only those as inputs.
      __gitbookDeclared: [],
    });
  });

  it("sends what the POST takes in the POST, then icon and default level in one PATCH", async () => {
    const parent = await collection("Products");
    const sent = spySent();
    const s = await created({ parent, language: "fr", editMode: "locked", icon: ICON, defaultLevel: null });
    expect(sent()).toEqual([
      [`POST /orgs/${env.org}/spaces`, { title: "Handbook", parent, language: "fr", editMode: "locked" }],
      [`PATCH /spaces/${s.id}`, { icon: ICON, defaultLevel: null }],
    ]);
    expect(live(s.id)).toMatchObject({ parentId: parent, language: "fr", editMode: "locked", icon: ICON, defaultLevel: null });
    expect(s.outs).toMatchObject({ parent, language: "fr", editMode: "locked", icon: ICON, defaultLevel: null });
  });

  it("keeps a created space in state when its PATCH fails, and finishes it on the next up", async () => {
    env.emu.faults.add({ match: { method: "PATCH", route: /\/spaces\/:space$/ }, errorRate: 1, status: 500 });
    const err = await env.up("Space", { title: "Half made", defaultLevel: "read" }).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: expect.any(String) });
    expect(err.properties).toMatchObject({ title: "Half made", defaultLevel: "inherit" });
    env.emu.faults.clear();
    const next = await env.up("Space", { title: "Half made", defaultLevel: "read" }, { id: err.id, outs: err.properties });
    expect(next.step).toBe("update");
    expect(live(err.id).defaultLevel).toBe("read");
  });

  it("creates once when the POST's answer is lost", async () => {
    env.emu.faults.add({ match: { method: "POST", route: SPACES }, dropAfterProcess: true, times: 1 });
    env.emu.log.reset();
    const r = await env.up("Space", { title: "Lost answer" });
    const made = [...env.emu.store.spaces.values()].filter((s) => s.title === "Lost answer");
    expect(made.map((s) => s.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: SPACES })).toBe(1);
  });
});

describe("update", () => {
  it("sends nothing when nothing changed, and only what changed otherwise", async () => {
    const s = await created({ emoji: "📘", language: "en" });
    env.emu.log.reset();
    expect((await env.up("Space", { title: "Handbook", emoji: "📘", language: "en" }, s)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const sent = spySent();
    const r = await env.up("Space", { title: "Staff handbook", emoji: "📘", language: "de" }, s);
    expect(r.step).toBe("update");
    expect(sent()).toEqual([[`PATCH /spaces/${s.id}`, { title: "Staff handbook", language: "de" }]]);
    expect(r.state.outs).toMatchObject({ title: "Staff handbook", language: "de", emoji: "📘" });
  });

  it("swaps an emoji for an icon and back in one PATCH each", async () => {
    const s = await created({ emoji: "📘" });
    const sent = spySent();
    const withIcon = await env.up("Space", { title: "Handbook", icon: ICON }, s);
    expect(live(s.id)).toMatchObject({ emoji: "", icon: ICON });
    const back = await env.up("Space", { title: "Handbook", emoji: "📗" }, withIcon.state);
    expect(sent()).toEqual([
      [`PATCH /spaces/${s.id}`, { emoji: null, icon: ICON }],
      [`PATCH /spaces/${s.id}`, { emoji: "📗", icon: null }],
    ]);
    expect(live(s.id).emoji).toBe("📗");
    expect(live(s.id).icon).toBeUndefined();
    expect(back.state.outs).not.toHaveProperty("icon");
  });

  it("moves the space in place when its parent changes, and to the top level when the parent is removed", async () => {
    const a = await collection("A");
    const b = await collection("B");
    const s = await created({ parent: a });
    const diff = await env.diff("Space", s, (await env.check("Space", { title: "Handbook", parent: b })).inputs!);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const sent = spySent();
    const moved = await env.up("Space", { title: "Handbook", parent: b }, s);
    expect(moved.state.id).toBe(s.id);
    expect(live(s.id).parentId).toBe(b);
    const top = await env.up("Space", { title: "Handbook" }, moved.state);
    expect(sent()).toEqual([
      [`POST /spaces/${s.id}/move`, { parent: b }],
      [`POST /spaces/${s.id}/move`, { parent: null }],
    ]);
    expect(live(s.id).parentId).toBeUndefined();
    expect(top.state.outs).not.toHaveProperty("parent");
  });

  it("takes a space already moved where the program says (answered 409) as moved", async () => {
    const a = await collection("Here");
    const b = await collection("There");
    const s = await created({ parent: a });
    live(s.id).parentId = b;
    env.outOfBand();
    const r = await env.up("Space", { title: "Handbook", parent: b }, s);
    expect(r.step).toBe("update");
    expect(r.state.outs.parent).toBe(b);
  });

  it("sends a move again when its answer is lost, and takes the 409 that follows as done", async () => {
    const a = await collection("Lost move from");
    const b = await collection("Lost move to");
    const s = await created({ parent: a });
    env.emu.faults.add({ match: { method: "POST", route: /\/spaces\/:space\/move$/ }, dropAfterProcess: true, times: 1 });
    env.emu.log.reset();
    const r = await env.up("Space", { title: "Handbook", parent: b }, s);
    expect(r.state.outs.parent).toBe(b);
    expect(live(s.id).parentId).toBe(b);
    expect(env.emu.log.count({ method: "POST", route: /\/move$/ })).toBe(2);
  });

  it("replaces the space for another organization only when the program allows it: the plan would trash its pages", async () => {
    const s = await created();
    env.emu.log.reset();
    const refused = env.diff("Space", s, (await env.check("Space", { organizationId: "org_other", title: "Handbook" })).inputs!);
    await expect(refused).rejects.toThrow(
      new RegExp(`organizationId: this change replaces the Space: .*would delete Space ${s.id} \\(its pages going with it to GitBook's trash\\).*allowReplacement: true`),
    );
    // Refused before any write: a preview fails with this message (once a CLI case of the DocsSite identity tests, now test/lifecycle/cascade.test.ts).
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s.id).deletedAt).toBeUndefined();
    const d = await env.diff("Space", s, (await env.check("Space", { organizationId: "org_other", title: "Handbook", allowReplacement: true })).inputs!);
    expect(d).toMatchObject({ replaces: ["organizationId"], deleteBeforeReplace: false });
    // Allowing it is not a change of its own.
    expect(await env.diff("Space", s, (await env.check("Space", { title: "Handbook", allowReplacement: true })).inputs!)).toMatchObject({ changes: false });
  });

  it("refuses, at the diff, a replacement that would trash pages, even allowed, until forceDestroy is recorded: nothing is written", async () => {
    const s = await created();
    env.emu.store.writePages(s.id, ["Intro", "Setup"]);
    // With the page it started with: once anything else is there, every page counts.
    const moved = async (args: Record<string, unknown>) => (await env.check("Space", { organizationId: "org_other", title: "Handbook", ...args })).inputs!;
    env.emu.log.reset();
    for (const args of [{}, { allowReplacement: true }, { allowReplacement: true, forceDestroy: true }]) {
      // forceDestroy declared in the same run is not what the delete will read (state's): still refused.
      await expect(env.diff("Space", s, await moved(args))).rejects.toThrow(
        new RegExp(`^Space ${s.id}: organizationId: this change replaces the Space, which deletes ${s.id} and sends the 3 pages it holds to GitBook's trash .*Nothing was changed.*set forceDestroy: true .*before the run that replaces it with allowReplacement: true`),
      );
    }
    expect(env.emu.log.writes()).toBe(0);
    // Recorded by an up (no request), the replacement may go ahead.
    const forced = (await env.up("Space", { title: "Handbook", forceDestroy: true }, s)).state;
    expect(await env.diff("Space", forced, await moved({ allowReplacement: true }))).toMatchObject({ replaces: ["organizationId"] });
  });
});

describe("removal", () => {
  it("clears emoji and icon, sets the default level back to inherit, and keeps language and edit mode", async () => {
    const s = await created({ emoji: "📘", language: "fr", editMode: "locked", defaultLevel: "read" });
    const sent = spySent();
    const r = await env.up("Space", { title: "Handbook" }, s);
    expect(sent()).toEqual([[`PATCH /spaces/${s.id}`, { emoji: null, defaultLevel: "inherit" }]]);
    expect(live(s.id)).toMatchObject({ emoji: "", language: "fr", editMode: "locked", defaultLevel: "inherit" });
    expect(r.state.outs).toMatchObject({ editMode: "locked" });
    expect(r.state.outs).not.toHaveProperty("language");
    const withIcon = await created({ icon: ICON });
    await env.up("Space", { title: "Handbook" }, withIcon);
    expect(live(withIcon.id).icon).toBeUndefined();
  });
});

describe("refresh", () => {
  it("shows drift made in the app, and converges it on the next up", async () => {
    const a = await collection("Drift A");
    const b = await collection("Drift B");
    const s = await created({ parent: a, emoji: "📘", defaultLevel: "read" });
    Object.assign(live(s.id), { title: "Renamed in the app", parentId: b, emoji: "🔥", defaultLevel: null, editMode: "locked" });
    env.outOfBand();
    const refreshed = (await env.refresh("Space", s))!;
    expect(refreshed.inputs).toEqual({ organizationId: env.org, title: "Renamed in the app", parent: b, emoji: "🔥", defaultLevel: null });
    // The edit mode the program does not manage is an output only (never an input a plan would show as removed).
    expect(refreshed.state.outs.editMode).toBe("locked");
    const sent = spySent();
    const r = await env.up("Space", { title: "Handbook", parent: a, emoji: "📘", defaultLevel: "read" }, refreshed.state);
    expect(r.step).toBe("update");
    expect(sent()).toEqual([
      [`PATCH /spaces/${s.id}`, { title: "Handbook", emoji: "📘", defaultLevel: "read" }],
      [`POST /spaces/${s.id}/move`, { parent: a }],
    ]);
    expect(live(s.id)).toMatchObject({ title: "Handbook", parentId: a, emoji: "📘", defaultLevel: "read", editMode: "locked" });
  });

  it("reads an emoji GitBook spells as codepoints as the one the program declares", async () => {
    const s = await created({ emoji: "❤️" });
    live(s.id).emoji = "2764";
    env.outOfBand();
    const r = (await env.refresh("Space", s))!;
    expect(r.inputs.emoji).toBe("❤️");
    env.emu.log.reset();
    expect((await env.up("Space", { title: "Handbook", emoji: "❤️" }, r.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("drops a space deleted outside Pulumi (in the trash, or gone), and deletes idempotently", async () => {
    const s = await created();
    await fetch(`${env.emu.url}/v1/spaces/${s.id}`, { method: "DELETE", headers: { authorization: `Bearer ${env.emu.token}` } });
    env.outOfBand();
    expect(await env.refresh("Space", s)).toBeUndefined();
    await env.destroy("Space", s);
    const t = await created();
    env.emu.store.spaces.delete(t.id);
    env.outOfBand();
    expect(await env.refresh("Space", t)).toBeUndefined();
    await env.destroy("Space", t);
  });
});

describe("delete", () => {
  it("sends the space to the trash, where it can be restored", async () => {
    const s = await created();
    env.emu.log.reset();
    await env.destroy("Space", s);
    expect(env.emu.log.count({ method: "DELETE" })).toBe(1);
    expect(live(s.id).deletedAt).toBeDefined();
    const restore = await fetch(`${env.emu.url}/v1/spaces/${s.id}/restore`, { method: "POST", headers: { authorization: `Bearer ${env.emu.token}` } });
    expect(restore.status).toBe(200);
    expect(live(s.id).deletedAt).toBeUndefined();
  });

  /** A site whose section shows `shown`, with a second site space of `shown` in another site made in the app (not by this provider). */
  async function shownOnSites(shown: string): Promise<{ siteSpaces: string[]; sections: string[] }> {
    const other = [...env.emu.store.spaces.values()].find((x) => x.id !== shown && !x.deletedAt)!.id;
    const siteA = (await env.up("Site", { title: "Docs A" })).state.id;
    const sectionA = (await env.up("SiteSection", { siteId: siteA, spaceId: other, title: "Home" })).state;
    const ssA = (await env.up("SiteSpace", { siteId: siteA, sectionId: sectionA.id, spaceId: shown, path: "handbook" })).state.id;
    const siteB = (await env.up("Site", { title: "Docs B" })).state.id;
    const sectionB = (await env.up("SiteSection", { siteId: siteB, spaceId: shown, title: "Handbook" })).state;
    return { siteSpaces: [ssA, String(sectionB.outs.siteSpaceId)], sections: [sectionA.id, sectionB.id] };
  }

  it("refuses to delete a space still shown by site spaces it would take off their sites, reading GitBook now, and deletes nothing", async () => {
    const s = await created();
    const { siteSpaces } = await shownOnSites(s.id);
    // A new process: nothing of those sites was seen here.
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.destroy("Space", s)).rejects.toThrow(
      new RegExp(`Space ${s.id}: deleting it \\(${s.id}\\) would also delete .*SiteSpace "Docs A / Handbook" \\(${siteSpaces[0]}\\), SiteSpace "Docs B / Handbook" \\(${siteSpaces[1]}\\).*takes every site space showing a space off its site.*Nothing was deleted.*forceDestroy: true`),
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s.id).deletedAt).toBeUndefined();
    for (const ss of siteSpaces) expect(env.emu.store.siteSpaces.has(ss)).toBe(true);
  });

  it("deletes a space shown on sites when its forceDestroy is recorded, taking the site spaces along", async () => {
    const s = await created();
    const { siteSpaces } = await shownOnSites(s.id);
    env.outOfBand();
    await env.destroy("Space", { ...s, outs: { ...s.outs, forceDestroy: true } });
    expect(live(s.id).deletedAt).toBeDefined();
    for (const ss of siteSpaces) expect(env.emu.store.siteSpaces.has(ss)).toBe(false);
  });

  it("reads only the sites that show the space: a space on no site costs one listing and its pages before its DELETE", async () => {
    const s = await created();
    await shownOnSites([...env.emu.store.spaces.values()].find((x) => x.id !== s.id && !x.deletedAt)!.id);
    env.outOfBand();
    env.emu.log.reset();
    await env.destroy("Space", s);
    expect(env.emu.log.count({ method: "GET" })).toBe(2);
    expect(live(s.id).deletedAt).toBeDefined();
  });

  /** The refusal of a delete that would trash `n` pages: their count, and the three fixes. */
  const trashesPages = (id: string, n: number) =>
    new RegExp(
      `^Space \\S+: deleting it \\(${id}\\) would send the ${n} pages? it holds to GitBook's trash \\(restorable for 7 days, then gone for good\\).*Nothing was deleted\\. ` +
        "If it was renamed rather than removed.*formerKeys.*aliases.*set forceDestroy: true on this Space \\(in a DocsSite: its entry's `space.forceDestroy`\\).*retainOnDelete: true.*`space.retainOnDelete`",
    );

  it("refuses to delete a space holding pages, counting them (child pages too) and naming the fixes, and sends no DELETE", async () => {
    const s = await created();
    const [, faq] = env.emu.store.writePages(s.id, ["Intro", "FAQ"]);
    live(s.id).pages!.find((p) => p.id === faq!.id)!.pages = [{ id: "page_child", title: "Install" }];
    env.emu.log.reset();
    // GitBook's first page, never edited, is counted with the others once anything else is there.
    await expect(env.destroy("Space", s)).rejects.toThrow(trashesPages(s.id, 4));
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s.id).deletedAt).toBeUndefined();
  });

  it("counts the one page a new space starts with once it has been edited (GitBook dates it then), and an emptied space as none", async () => {
    const s = await created();
    live(s.id).pages![0]!.updatedAt = new Date().toISOString();
    await expect(env.destroy("Space", s)).rejects.toThrow(trashesPages(s.id, 1));
    live(s.id).pages = [];
    await env.destroy("Space", s);
    expect(live(s.id).deletedAt).toBeDefined();
  });

  it("names the pages and the site spaces in one refusal, and deletes with both once forceDestroy is recorded", async () => {
    const s = await created();
    env.emu.store.writePages(s.id, ["Intro"]);
    const { siteSpaces } = await shownOnSites(s.id);
    env.outOfBand();
    await expect(env.destroy("Space", s)).rejects.toThrow(
      new RegExp(`would send the 2 pages it holds to GitBook's trash .*, and would also delete what it still holds.*SiteSpace "Docs A / Handbook" \\(${siteSpaces[0]}\\).*Nothing was deleted`),
    );
    expect(live(s.id).deletedAt).toBeUndefined();
    await env.destroy("Space", { ...s, outs: { ...s.outs, forceDestroy: true } });
    expect(live(s.id).deletedAt).toBeDefined();
    // In the trash with its pages: a restore brings them back.
    expect(live(s.id).pages).toHaveLength(2);
  });
});

describe("adoption", () => {
  it("adopts a space whose settings match the program without writing anything", async () => {
    const parent = await collection("Adopted home");
    const existing = await created({ title: "Existing", parent, emoji: "🧭", language: "en", editMode: "locked", defaultLevel: "comment" });
    env.emu.log.reset();
    const r = await env.up("Space", { title: "Existing", parent, emoji: "🧭", language: "en", editMode: "locked", defaultLevel: "comment", adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.writes()).toBe(0);
    expect(r.state.outs).toMatchObject({ title: "Existing", parent, adoptId: existing.id });
  });

  it("changes only what the program declares on an adopted space", async () => {
    const existing = await created({ title: "Legacy", emoji: "🧭", language: "ja", defaultLevel: null });
    const sent = spySent();
    const r = await env.up("Space", { title: "Adopted", adoptId: existing.id });
    expect(sent()).toEqual([[`PATCH /spaces/${existing.id}`, { title: "Adopted" }]]);
    expect(live(existing.id)).toMatchObject({ title: "Adopted", emoji: "🧭", language: "ja", defaultLevel: null });
    expect(r.state.outs).not.toHaveProperty("emoji");
  });

  it("refuses to adopt a space of another organization, or one that does not exist", async () => {
    const other = { ...env.emu.store.newId("org"), title: "Other", hostname: "other", emailDomains: [] };
    env.emu.store.orgs.set(other.id, other);
    const theirs = (await env.up("Space", { organizationId: other.id, title: "Theirs" })).state;
    await expect(env.up("Space", { title: "Theirs", adoptId: theirs.id })).rejects.toThrow(/adoptId ".+" names an object with organizationId=/);
    await expect(env.up("Space", { title: "X", adoptId: "spc_missing" })).rejects.toThrow(/adoptId "spc_missing" names no existing object/);
  });
});
