import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../framework/check";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";

let env: ProviderEnv;
let teamId: string;
beforeAll(async () => {
  env = await startProviderEnv();
  const { seq, id, createdAt } = env.emu.store.newId("team");
  env.emu.store.teams.set(id, { id, seq, createdAt, orgId: env.org, title: "SSO users" });
  teamId = id;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

const SAML = "/v1/orgs/:org/saml";
const ONE = "/v1/orgs/:org/saml/:saml";

const idp = {
  entityID: "https://idp.acme.test/metadata",
  certificate: "MIIC-test-certificate",
  ssoURL: "https://idp.acme.test/sso",
};
const base = { label: "Acme SSO" };

async function created(extra: Record<string, unknown> = {}): Promise<State> {
  return (await env.up("SamlProvider", { ...base, ...extra })).state;
}
const live = (id: string) => env.emu.store.samlProviders.get(id)!;

describe("check", () => {
  const bad: BadInput[] = [
    ["label", { label: "" }, /^label must be 1 to 30 characters/],
    ["label", { label: "l".repeat(31) }, /^label must be 1 to 30 characters/],
    ["entityID", { entityID: "e".repeat(1025) }, /^entityID must be at most 1024 characters/],
    ["certificate", { certificate: "c".repeat(10001) }, /^certificate must be at most 10000 characters/],
    ["ssoURL", { ssoURL: "idp.acme.test/sso" }, /^ssoURL must be an absolute http\(s\) URL/],
    ["ssoURL", { ssoURL: "ftp://idp.acme.test/sso" }, /^ssoURL must be an absolute http\(s\) URL/],
    ["ssoURL", { ssoURL: `https://idp.acme.test/${"s".repeat(2028)}` }, /^ssoURL must be at most 2048 characters/],
    ["defaultTeam", { defaultTeam: "" }, /^defaultTeam must not be empty/],
    ["defaultRole", { defaultRole: "guest" }, /^defaultRole must be one of admin, create, review, edit, comment, read, or null for guests/],
  ];
  rejectsAtCheck(() => env, "SamlProvider", base, bad);

  it("accepts the limits exactly", async () => {
    const r = await env.check("SamlProvider", {
      label: "l".repeat(30),
      entityID: "e".repeat(1024),
      certificate: "c".repeat(10000),
      ssoURL: `https://idp.acme.test/${"s".repeat(2048 - 22)}`,
    });
    expect(r.failures).toBeUndefined();
  });

  it("requires a label", async () => {
    expect((await env.check("SamlProvider", {})).failures).toContainEqual({ property: "label", reason: "label is required" });
  });

  it("keeps an explicit null defaultRole (guests) and leaves an absent one absent", async () => {
    expect((await env.check("SamlProvider", { ...base, defaultRole: null })).inputs).toEqual({ ...base, organizationId: env.org, defaultRole: null });
    expect((await env.check("SamlProvider", base)).inputs).toEqual({ ...base, organizationId: env.org });
  });

  it("skips values not known until apply", async () => {
    expect((await env.check("SamlProvider", { label: UNKNOWN, ssoURL: UNKNOWN, defaultTeam: UNKNOWN })).failures).toBeUndefined();
  });

  it("fails up with the property named", async () => {
    await expect(env.up("SamlProvider", { label: "" })).rejects.toThrow(CheckFailed);
  });
});

describe("diff", () => {
  let state: State;
  let guests: State;
  beforeAll(async () => {
    state = await created({ ...idp, defaultRole: "read" });
    guests = await created({ defaultRole: null });
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("SamlProvider", news)).inputs!;

  it("reports no change for the same program, without a request", async () => {
    env.emu.log.reset();
    expect((await env.diff("SamlProvider", state, await inputs({ ...base, ...idp, defaultRole: "read" }))).changes).toBe(false);
    expect((await env.diff("SamlProvider", guests, await inputs({ ...base, defaultRole: null }))).changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  it("updates in place for a label change", async () => {
    const d = await env.diff("SamlProvider", state, await inputs({ ...base, ...idp, defaultRole: "read", label: "New" }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces for an organization change", async () => {
    const d = await env.diff("SamlProvider", state, await inputs({ ...base, ...idp, defaultRole: "read", organizationId: "org_other" }));
    expect(d.replaces).toEqual(["organizationId"]);
  });

  it("sees a removed optional field as a change", async () => {
    const d = await env.diff("SamlProvider", state, await inputs({ ...base, ssoURL: idp.ssoURL, entityID: idp.entityID, defaultRole: "read" }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("tells guests (null) from unmanaged (absent) and from a role", async () => {
    expect((await env.diff("SamlProvider", state, await inputs({ ...base, ...idp, defaultRole: null }))).changes).toBe(true);
    expect((await env.diff("SamlProvider", guests, await inputs({ ...base, defaultRole: "read" }))).changes).toBe(true);
    const unmanaged = await created();
    expect((await env.diff("SamlProvider", unmanaged, await inputs({ ...base, defaultRole: null }))).changes).toBe(true);
  });

  it("treats an unknown value as a possible change", async () => {
    const d = await env.diff("SamlProvider", state, { ...(await inputs({ ...base, ...idp, defaultRole: "read" })), ssoURL: UNKNOWN });
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("lifecycle", () => {
  it("creates with one POST and returns what the identity provider needs", async () => {
    env.emu.log.reset();
    const s = await created({ ...idp, defaultTeam: teamId, defaultRole: "edit" });
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "POST", route: SAML })).toBe(1);
    expect(live(s.id)).toMatchObject({ label: "Acme SSO", ...idp, defaultTeamId: teamId, defaultRole: "edit" });
    expect(s.outs).toEqual({
      organizationId: env.org,
      ...base,
      ...idp,
      defaultTeam: teamId,
      defaultRole: "edit",
      status: "active",
      acsURL: expect.stringMatching(/^https:\/\/.+acs$/),
      startURL: expect.stringMatching(/^https:\/\/.+start$/),
      serviceEntityID: expect.stringContaining(s.id),
      createdAt: expect.any(String),
    });
  });

  it("creates a minimal provider, pending until the identity provider is described", async () => {
    const s = await created();
    expect(s.outs).toMatchObject({ status: "pending" });
    expect(s.outs).not.toHaveProperty("defaultRole");
    expect(live(s.id).defaultRole).toBeNull();
  });

  it("updates only what changed, and nothing when nothing changed", async () => {
    const s = await created({ ...idp });
    // Changed behind Pulumi's back and not refreshed: a PATCH carrying more than the label would undo it.
    live(s.id).certificate = "rotated-in-the-app";
    env.emu.log.reset();
    expect((await env.up("SamlProvider", { ...base, ...idp }, s)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
    const r = await env.up("SamlProvider", { ...base, ...idp, label: "Renamed" }, s);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: ONE })).toBe(1);
    expect(live(s.id)).toMatchObject({ label: "Renamed", certificate: "rotated-in-the-app" });
  });

  it("clears a removed entityID and certificate with an empty string, and leaves a removed ssoURL and defaultTeam in place", async () => {
    const s = await created({ ...idp, defaultTeam: teamId });
    env.emu.log.reset();
    const r = await env.up("SamlProvider", base, s);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    const p = live(s.id);
    // The API takes no null for them: an empty entityID and certificate are how it says "none".
    expect([p.entityID, p.certificate, p.ssoURL, p.defaultTeamId]).toEqual(["", "", idp.ssoURL, teamId]);
    expect(r.state.outs).toMatchObject({ status: "pending" });
    for (const key of ["entityID", "certificate", "ssoURL", "defaultTeam"]) expect(r.state.outs).not.toHaveProperty(key);
    // What it answers for them reads as absent, as the program has them: nothing to converge.
    const refreshed = await env.refresh("SamlProvider", r.state);
    expect(refreshed!.inputs).toEqual({ organizationId: env.org, ...base });
    env.emu.log.reset();
    expect((await env.up("SamlProvider", base, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("sets guests with an explicit null and leaves the role alone when defaultRole is removed", async () => {
    const s = await created({ defaultRole: "comment" });
    const toGuests = await env.up("SamlProvider", { ...base, defaultRole: null }, s);
    expect(toGuests.step).toBe("update");
    expect(live(s.id).defaultRole).toBeNull();
    expect(toGuests.state.outs.defaultRole).toBeNull();
    const back = await env.up("SamlProvider", { ...base, defaultRole: "review" }, toGuests.state);
    expect(live(s.id).defaultRole).toBe("review");
    env.emu.log.reset();
    const unmanaged = await env.up("SamlProvider", base, back.state);
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s.id).defaultRole).toBe("review");
    expect(unmanaged.state.outs).not.toHaveProperty("defaultRole");
  });

  it("shows drift after refresh, guests included, and converges it", async () => {
    const s = await created({ ...idp, defaultRole: "read", defaultTeam: teamId });
    Object.assign(live(s.id), { label: "Hand made", defaultRole: null, ssoURL: "https://other-idp.acme.test/sso", certificate: "" });
    const refreshed = await env.refresh("SamlProvider", s);
    expect(refreshed!.inputs).toEqual({
      organizationId: env.org,
      label: "Hand made",
      entityID: idp.entityID,
      ssoURL: "https://other-idp.acme.test/sso",
      defaultTeam: teamId,
      defaultRole: null,
    });
    expect(refreshed!.state.outs.status).toBe("pending");
    const r = await env.up("SamlProvider", { ...base, ...idp, defaultRole: "read", defaultTeam: teamId }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(live(s.id)).toMatchObject({ label: "Acme SSO", ssoURL: idp.ssoURL, defaultRole: "read" });
    expect(r.state.outs.status).toBe("active");
  });

  it("drops a provider deleted outside Pulumi at refresh, and deletes idempotently", async () => {
    const s = await created();
    await env.destroy("SamlProvider", s);
    expect(env.emu.store.samlProviders.has(s.id)).toBe(false);
    expect(await env.refresh("SamlProvider", s)).toBeUndefined();
    await env.destroy("SamlProvider", s);
  });

  it("adopts an existing provider and converges it to the program", async () => {
    const existing = await created({ label: "Legacy", defaultRole: "admin" });
    env.emu.log.reset();
    const r = await env.up("SamlProvider", { ...base, ...idp, defaultRole: null, adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(live(existing.id)).toMatchObject({ label: "Acme SSO", ...idp, defaultRole: null });
    expect(r.state.outs.status).toBe("active");
  });

  it("fails clearly when adoptId names nothing", async () => {
    await expect(env.up("SamlProvider", { ...base, adoptId: "saml_missing" })).rejects.toThrow(/adoptId "saml_missing" names no existing object/);
  });

  it("recovers from a lost POST answer without creating the provider twice", async () => {
    const label = "Lost answer SSO";
    env.emu.faults.add({ match: { method: "POST", route: SAML }, dropAfterProcess: true, times: 1 });
    env.emu.log.reset();
    const r = await env.up("SamlProvider", { label, ...idp });
    const all = [...env.emu.store.samlProviders.values()].filter((x) => x.label === label);
    expect(all.map((x) => x.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: SAML })).toBe(1);
    expect(r.state.outs).toMatchObject({ label, status: "active" });
  });

  it("reports an API rejection of an unknown default team", async () => {
    await expect(env.up("SamlProvider", { ...base, defaultTeam: "team_nope" })).rejects.toThrow(/defaultTeam/);
  });
});
