/**
 * The whole topology the fault suite deploys, and the checks every fault test ends with: the emulator
 * holds exactly what state says (no duplicates, no orphans), a re-run converges, and the API token
 * appears in no file the run wrote.
 */
import * as fs from "node:fs";
import { expect } from "vitest";
import type { Emulator } from "../../emulator";
import { collections } from "../../emulator/resources/collections";
import type { StateFile } from "../../dev/harness/engine";
import { filesUnder, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

export const SPEC_TEXT = "openapi: 3.0.3\ninfo:\n  title: Faults API\n  version: 1.0.0\npaths: {}\n";

/** Three sections each with one more site space, two share links, a team with members, SSO, an API spec. */
export function topology(emu: Emulator): Decl[] {
  const s = emu.seeded.spaceIds;
  const m = emu.seeded.members;
  const decls: Decl[] = [{ kind: "Site", name: "site", args: { title: "Fault Docs", visibility: "share-link", basename: "faults" } }];
  for (let i = 0; i < 3; i++) {
    decls.push({ kind: "SiteSection", name: `section${i}`, args: { siteId: ref("site.id"), spaceId: s[i], title: `Section ${i}`, description: `About ${i}` } });
    decls.push({
      kind: "SiteSpace",
      name: `section${i}-v2`,
      args: { siteId: ref("site.id"), sectionId: ref(`section${i}.id`), spaceId: s[3 + i], path: "v2" },
    });
  }
  decls.push(
    { kind: "ShareLink", name: "reviewers", args: { siteId: ref("site.id"), name: "Reviewers" } },
    { kind: "ShareLink", name: "revoked", args: { siteId: ref("site.id"), name: "Former agency", active: false } },
    { kind: "Team", name: "team", args: { title: "Docs Team", members: [{ user: m[1]!.email, role: "owner" }, { user: m[2]!.id }] } },
    {
      kind: "SamlProvider",
      name: "sso",
      args: {
        label: "Okta",
        entityID: "http://www.okta.com/exk1",
        ssoURL: "https://acme.okta.com/app/sso/saml",
        certificate: "MIIC-test-certificate",
        defaultTeam: ref("team.id"),
        defaultRole: "read",
      },
    },
    { kind: "OpenApiSpec", name: "spec", args: { slug: "faults-api", source: { text: SPEC_TEXT }, visibility: "public" } },
  );
  return decls;
}

/** What a fault test needs from a deployment. Retries stay real (these runs are about outcomes, not timing). */
export async function deploy(): Promise<Deployment> {
  return startDeployment();
}

/** Objects of the kinds the topology manages, as the emulator holds them, keyed "Kind id"; `appMade` IDs left out. */
function liveObjects(emu: Emulator, appMade: ReadonlySet<string>): string[] {
  const st = emu.store;
  const out: string[] = [];
  for (const id of collections.of(st).keys()) out.push(`Collection ${id}`);
  for (const id of st.sites.keys()) out.push(`Site ${id}`);
  for (const id of st.sections.keys()) out.push(`SiteSection ${id}`);
  // A section's first site space is part of the SiteSection resource, not a SiteSpace of its own.
  const own = new Set([...st.sections.values()].map((s) => st.siteSpacesIn(s.siteId, s.id).find((ss) => ss.spaceId === s.spaceId)?.id));
  for (const id of st.siteSpaces.keys()) if (!own.has(id)) out.push(`SiteSpace ${id}`);
  for (const id of st.shareLinks.keys()) out.push(`ShareLink ${id}`);
  for (const id of st.teams.keys()) out.push(`Team ${id}`);
  for (const id of st.samlProviders.keys()) out.push(`SamlProvider ${id}`);
  // Specs are addressed by slug; state may hold either.
  for (const s of st.openApiSpecs.values()) out.push(`OpenApiSpec ${s.slug}`);
  return out.filter((o) => !appMade.has(o.split(" ")[1]!)).sort();
}

function stateObjects(state: StateFile, emu: Emulator): string[] {
  return state.resources
    .filter((r) => r.custom && r.id)
    .map((r) => {
      const kind = r.type.split(":").pop()!;
      const spec = kind === "OpenApiSpec" ? [...emu.store.openApiSpecs.values()].find((s) => s.id === r.id || s.slug === r.id) : undefined;
      return `${kind} ${spec ? spec.slug : r.id}`;
    })
    .sort();
}

/**
 * State and emulator agree object for object: nothing in state that the API lacks, nothing on the API
 * that state does not know (an orphan a later run would duplicate), no two state entries for one object.
 * `appMade`: IDs of objects made outside the program, which must not be in state.
 */
export function expectStateMatchesEmulator(d: Deployment, appMade: ReadonlySet<string> = new Set()): void {
  const inState = stateObjects(d.state(), d.emu);
  expect(new Set(inState).size, "two state entries name one object").toBe(inState.length);
  for (const id of appMade) expect(inState.some((o) => o.endsWith(` ${id}`)), `app-made ${id} in state`).toBe(false);
  expect(liveObjects(d.emu, appMade)).toEqual(inState);
  // Each SiteSection's own site space still exists and is the one state names.
  for (const r of d.state().resources.filter((x) => x.type.endsWith(":SiteSection"))) {
    const ss = d.emu.store.siteSpaces.get(String(r.outputs.siteSpaceId));
    expect(ss?.sectionId, `${r.name}'s own site space`).toBe(r.id);
  }
}

/** After a converged run: every declared resource is in state once, and the emulator holds exactly those objects. */
export function expectExactlyDeclared(d: Deployment, decls: Decl[], appMade: ReadonlySet<string> = new Set()): void {
  expectStateMatchesEmulator(d, appMade);
  const names = d.state().resources.filter((r) => r.custom).map((r) => r.name).sort();
  expect(names).toEqual(decls.map((x) => x.name).sort());
  const st = d.emu.store;
  const count = (kind: string) => decls.filter((x) => x.kind === kind).length;
  const made = (table: Map<string, unknown>) => [...table.keys()].filter((id) => !appMade.has(id)).length;
  expect(made(st.sites)).toBe(count("Site"));
  expect(made(st.sections)).toBe(count("SiteSection"));
  expect(made(st.siteSpaces)).toBe(count("SiteSection") + count("SiteSpace"));
  expect(made(st.shareLinks)).toBe(count("ShareLink"));
  expect(made(st.teams)).toBe(count("Team"));
  expect(made(st.samlProviders)).toBe(count("SamlProvider"));
  expect(made(st.openApiSpecs)).toBe(count("OpenApiSpec"));
  expect(made(collections.of(st))).toBe(count("Collection"));
  // Declared settings reached the API, not only state.
  const site = st.sites.get(d.resource("site").id!)!;
  expect(site).toMatchObject({ title: "Fault Docs", visibility: "share-link", basename: "faults" });
  for (let i = 0; i < 3; i++) {
    expect(st.sections.get(d.resource(`section${i}`).id!)).toMatchObject({ title: `Section ${i}`, description: `About ${i}` });
    expect(st.siteSpaces.get(d.resource(`section${i}-v2`).id!)).toMatchObject({ path: "v2", sectionId: d.resource(`section${i}`).id });
  }
  expect(st.shareLinks.get(d.resource("revoked").id!)!.active).toBe(false);
  expect(st.teamMembersOf(d.resource("team").id!).map((m) => m.role).sort()).toEqual(["member", "owner"]);
  const sso = st.samlProviders.get(d.resource("sso").id!)!;
  expect(sso).toMatchObject({ label: "Okta", defaultRole: "read" });
}

/** Re-running the program with faults cleared converges: an up that sends no write, and a refresh that finds no drift. */
export async function expectConvergedRerun(d: Deployment, decls: Decl[]): Promise<void> {
  d.emu.faults.clear();
  const up = await d.run("up", decls);
  expect(up.error).toBeUndefined();
  expectExactlyDeclared(d, decls);
  d.emu.log.reset();
  const again = await d.run("up", decls);
  expect(again.error).toBeUndefined();
  expect(again.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
  expect(d.emu.log.writes()).toBe(0);
}

/** Every file the engine wrote for this deployment (state and its backups, logs, event logs, config), and any extra text. */
export function expectTokenNowhere(d: Deployment, tokens: string[], extra: string[] = []): void {
  expect(fs.existsSync(d.statePath)).toBe(true);
  for (const [file, text] of [...filesUnder(d.dir), ...extra.map((t) => ["output", t] as const)]) {
    for (const t of tokens) expect(text.includes(t), `the API token leaked into ${file}`).toBe(false);
  }
}
