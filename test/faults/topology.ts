/**
 * The whole topology the fault suite deploys, and the checks every fault test ends with: the emulator
 * holds exactly what state says (no duplicates, no orphans), a re-run converges, and the API token
 * appears in no file the run wrote.
 */
import * as fs from "node:fs";
import { expect } from "vitest";
import type { Emulator } from "../../emulator";
import type { StateFile } from "../../dev/report";
import { filesUnder, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { differencesFromGitBook, plannedSteps } from "../support/stateIsGitBook";

const ref = (s: string) => ({ $ref: s });

export const SPEC_TEXT = "openapi: 3.0.3\ninfo:\n  title: Faults API\n  version: 1.0.0\npaths: {}\n";

/**
 * Every kind: three sections each with one more site space, a section group, a link, their order, a
 * visitor schema and publishing; two share links, a team with members, SSO, an API spec, a collection
 * holding a space, and a DocsSite (with a space it creates).
 */
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
    // Content: a collection holding a space the program creates.
    { kind: "Collection", name: "guides", args: { title: "Fault Guides", description: "Kept through faults" } },
    { kind: "Space", name: "handbook", args: { title: "Fault Handbook", parent: ref("guides.id") } },
    // The site's navigation: a group holding the third section, a link (GitBook takes links only in a
    // site made of sections), their order, the visitor schema, and publishing once all of it exists.
    { kind: "SiteSectionGroup", name: "tools", args: { siteId: ref("site.id"), title: "Tools", sections: [ref("section2.id")] } },
    { kind: "SiteExternalLink", name: "status", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["section0"] },
    { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: ORDER.map((n) => ref(`${n}.id`)) } },
    { kind: "SiteAdaptiveSchema", name: "visitors", args: { siteId: ref("site.id"), jsonSchema: visitorSchema("isBetaUser") } },
    {
      kind: "SitePublication",
      name: "publication",
      args: { siteId: ref("site.id"), published: true },
      dependsOn: ["order", "visitors", "tools", ...[0, 1, 2].map((i) => `section${i}-v2`)],
    },
    // A DocsSite: its site, a section on a space it creates, a group with a section and a link, the
    // visitor schema its condition uses, a share link, its order and its publication.
    {
      kind: "DocsSite",
      name: "portal",
      args: {
        site: { title: "Fault Portal", visibility: "share-link", published: true },
        visitorSchema: visitorSchema("isPartner"),
        sections: [
          { key: "start", space: { title: "Portal Start" }, title: "Start" },
          {
            type: "group",
            key: "more",
            title: "More",
            sections: [
              { key: "sdk", spaceId: s[4], title: "SDK", condition: "visitor.claims.isPartner" },
              { type: "link", key: "community", title: "Community", url: "https://community.acme.test" },
            ],
          },
        ],
        shareLinks: [{ key: "partners", name: "Partners" }],
      },
    },
  );
  return decls;
}

/** The main site's top level, in the declared order. */
const ORDER = ["status", "section1", "tools", "section0"];

function visitorSchema(claim: string) {
  return {
    type: "object",
    properties: { [claim]: { type: "boolean", description: `Whether the visitor is ${claim}.` } },
    additionalProperties: false,
  };
}

/** What a fault test needs from a deployment. Retries stay real (these runs are about outcomes, not timing). */
export async function deploy(): Promise<Deployment> {
  return startDeployment();
}

/** Kinds whose resource is a setting of its site, not an object of its own: checked by their effect. */
const SETTINGS = new Set(["SiteStructureOrder", "SitePublication"]);

/** Objects of the kinds the topology manages, as the emulator holds them, keyed "Kind id"; `appMade` IDs left out. */
function liveObjects(emu: Emulator, appMade: ReadonlySet<string>): string[] {
  const st = emu.store;
  const out: string[] = [];
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
  for (const id of st.collections.keys()) out.push(`Collection ${id}`);
  // The organization's own spaces are not the program's; a space in the trash is gone.
  const seeded = new Set(emu.seeded.spaceIds);
  for (const s of st.spaces.values()) if (!seeded.has(s.id) && !s.deletedAt) out.push(`Space ${s.id}`);
  for (const id of st.sectionGroups.keys()) out.push(`SiteSectionGroup ${id}`);
  for (const id of st.externalLinks.keys()) out.push(`SiteExternalLink ${id}`);
  // A site's visitor schema is addressed by its site's ID; GitBook's default, the empty one, is none.
  for (const [id, v] of st.adaptiveSchemas) if (Object.keys(v.jsonSchema.properties ?? {}).length > 0) out.push(`SiteAdaptiveSchema ${id}`);
  return out.filter((o) => !appMade.has(o.split(" ")[1]!)).sort();
}

function stateObjects(state: StateFile, emu: Emulator): string[] {
  return state.resources
    .filter((r) => r.custom && r.id && !SETTINGS.has(kindOf(r)))
    .map((r) => {
      const kind = kindOf(r);
      const spec = kind === "OpenApiSpec" ? [...emu.store.openApiSpecs.values()].find((s) => s.id === r.id || s.slug === r.id) : undefined;
      return `${kind} ${spec ? spec.slug : r.id}`;
    })
    .sort();
}

const kindOf = (r: { type: string }) => r.type.split(":").pop()!;

/**
 * State and emulator agree object for object: nothing in state that the API lacks, nothing on the API
 * that state does not know (an orphan a later run would duplicate), no two state entries for one
 * object; and nothing lost: none of the organization's own spaces went to the trash.
 * `appMade`: IDs of objects made outside the program, which must not be in state.
 */
export function expectStateMatchesEmulator(d: Deployment, appMade: ReadonlySet<string> = new Set(), resent: readonly string[] = []): void {
  const inState = stateObjects(d.state(), d.emu);
  expect(new Set(inState).size, "two state entries name one object").toBe(inState.length);
  for (const id of appMade) expect(inState.some((o) => o.endsWith(` ${id}`)), `app-made ${id} in state`).toBe(false);
  // `resent`: the kinds of the pending creates recover dropped because their create sets the object with
  // a request the next up sends again (a site's visitor schema): such an object may be there, in no state,
  // until that up; one per drop.
  const left = [...resent];
  const unexplained = liveObjects(d.emu, appMade).filter((o) => {
    const i = inState.includes(o) ? -1 : left.indexOf(o.split(" ")[0]!);
    if (i >= 0) left.splice(i, 1);
    return i < 0;
  });
  expect(unexplained).toEqual(inState);
  // Each SiteSection's own site space still exists and is the one state names.
  for (const r of d.state().resources.filter((x) => x.type.endsWith(":SiteSection"))) {
    const ss = d.emu.store.siteSpaces.get(String(r.outputs.siteSpaceId));
    expect(ss?.sectionId, `${r.name}'s own site space`).toBe(r.id);
  }
  expectNoSpaceLost(d);
}

/** The organization's own spaces are never trashed, and stay where they were. */
function expectNoSpaceLost(d: Deployment): void {
  for (const id of d.emu.seeded.spaceIds) {
    const space = d.emu.store.spaces.get(id)!;
    expect([space.deletedAt, space.parentId], `space ${id}: [trashed at, collection]`).toEqual([undefined, undefined]);
  }
}

/** What the DocsSite declares, by kind (its children's names are the component's business). */
const PORTAL_KINDS: Record<string, number> = {
  Site: 1,
  Space: 1,
  SiteSection: 2,
  SiteSectionGroup: 1,
  SiteExternalLink: 1,
  ShareLink: 1,
  SiteAdaptiveSchema: 1,
  SiteStructureOrder: 1,
  SitePublication: 1,
};

/** After a converged run: every declared resource is in state once, and the emulator holds exactly those objects. */
export function expectExactlyDeclared(d: Deployment, decls: Decl[], appMade: ReadonlySet<string> = new Set()): void {
  expectStateMatchesEmulator(d, appMade);
  const custom = d.state().resources.filter((r) => r.custom);
  const portal = custom.filter((r) => r.name === "portal" || r.name.startsWith("portal/"));
  expect(custom.filter((r) => !portal.includes(r)).map((r) => r.name).sort()).toEqual(decls.filter((x) => x.kind !== "DocsSite").map((x) => x.name).sort());
  const portalKinds: Record<string, number> = {};
  for (const r of portal) portalKinds[kindOf(r)] = (portalKinds[kindOf(r)] ?? 0) + 1;
  expect(portalKinds).toEqual(PORTAL_KINDS);
  const st = d.emu.store;
  const count = (kind: string) => decls.filter((x) => x.kind === kind).length + (PORTAL_KINDS[kind] ?? 0);
  const made = (ids: Iterable<string>) => [...ids].filter((id) => !appMade.has(id)).length;
  expect(made(st.sites.keys())).toBe(count("Site"));
  expect(made(st.sections.keys())).toBe(count("SiteSection"));
  expect(made(st.siteSpaces.keys())).toBe(count("SiteSection") + count("SiteSpace"));
  expect(made(st.shareLinks.keys())).toBe(count("ShareLink"));
  expect(made(st.teams.keys())).toBe(count("Team"));
  expect(made(st.samlProviders.keys())).toBe(count("SamlProvider"));
  expect(made(st.openApiSpecs.keys())).toBe(count("OpenApiSpec"));
  expect(made(st.collections.keys())).toBe(count("Collection"));
  // Spaces an earlier destroy deleted stay in the trash.
  expect(made([...st.spaces.values()].filter((x) => !x.deletedAt).map((x) => x.id))).toBe(d.emu.seeded.spaceIds.length + count("Space"));
  expect(made(st.sectionGroups.keys())).toBe(count("SiteSectionGroup"));
  expect(made(st.externalLinks.keys())).toBe(count("SiteExternalLink"));
  expect(made(st.adaptiveSchemas.keys())).toBe(count("SiteAdaptiveSchema"));
  // Declared settings reached the API, not only state.
  const id = (name: string) => d.resource(name).id!;
  const site = st.sites.get(id("site"))!;
  expect(site).toMatchObject({ title: "Fault Docs", visibility: "share-link", basename: "faults", published: true });
  for (let i = 0; i < 3; i++) {
    expect(st.sections.get(id(`section${i}`))).toMatchObject({ title: `Section ${i}`, description: `About ${i}` });
    expect(st.siteSpaces.get(id(`section${i}-v2`))).toMatchObject({ path: "v2", sectionId: id(`section${i}`) });
  }
  expect(st.shareLinks.get(id("revoked"))!.active).toBe(false);
  expect(st.teamMembersOf(id("team")).map((m) => m.role).sort()).toEqual(["member", "owner"]);
  const sso = st.samlProviders.get(id("sso"))!;
  expect(sso).toMatchObject({ label: "Okta", defaultRole: "read" });
  expect(st.collections.get(id("guides"))).toMatchObject({ title: "Fault Guides", description: "Kept through faults" });
  expect(st.spaces.get(id("handbook"))).toMatchObject({ title: "Fault Handbook", parentId: id("guides") });
  expect(st.sectionGroups.get(id("tools"))!.sectionIds).toEqual([id("section2")]);
  expect(st.externalLinks.get(id("status"))).toMatchObject({ title: "Status", url: "https://status.acme.test" });
  expect(st.childrenOf(id("site"), undefined).map((n) => n.record.id)).toEqual(ORDER.map(id));
  expect(Object.keys(st.adaptiveSchemas.get(id("site"))!.jsonSchema.properties as object)).toEqual(["isBetaUser"]);
  const portalSite = portal.find((r) => kindOf(r) === "Site")!.id!;
  expect(st.sites.get(portalSite)).toMatchObject({ title: "Fault Portal", published: true });
  const portalSpace = st.spaces.get(portal.find((r) => kindOf(r) === "Space")!.id!)!;
  expect(portalSpace.title).toBe("Portal Start");
  // The portal's navigation, in the declared order: the section on the space it made, then the group.
  const top = st.childrenOf(portalSite, undefined);
  expect(top.map((n) => n.type)).toEqual(["site-section", "site-section-group"]);
  expect(st.sections.get(top[0]!.record.id)).toMatchObject({ title: "Start", spaceId: portalSpace.id });
  expect(st.childrenOf(portalSite, top[1]!.record.id).map((n) => [n.type, (n.record as { title: string | null }).title])).toEqual([
    ["site-section", "SDK"],
    ["site-external-link", "Community"],
  ]);
}

/**
 * After a destroy: nothing the program made is left, the spaces it made are in the trash (a deleted
 * space goes there), and the organization's own spaces were not touched.
 */
export function expectNothingLeft(d: Deployment): void {
  expect(d.state().resources.filter((x) => x.custom)).toEqual([]);
  const st = d.emu.store;
  const left = { sites: st.sites, sections: st.sections, siteSpaces: st.siteSpaces, shareLinks: st.shareLinks, teams: st.teams, samlProviders: st.samlProviders,
    openApiSpecs: st.openApiSpecs, collections: st.collections, sectionGroups: st.sectionGroups, externalLinks: st.externalLinks, adaptiveSchemas: st.adaptiveSchemas };
  expect(Object.fromEntries(Object.entries(left).map(([k, m]) => [k, m.size]))).toEqual(Object.fromEntries(Object.keys(left).map((k) => [k, 0])));
  const seeded = new Set(d.emu.seeded.spaceIds);
  expect([...st.spaces.values()].filter((s) => !seeded.has(s.id) && !s.deletedAt).map((s) => s.title)).toEqual([]);
  expectNoSpaceLost(d);
}

/**
 * After an up: every resource's state is what GitBook holds (issue 42), and the next plan, made in this
 * process, has nothing to do and sends no write. Faults are cleared first. With `lateDuplicates`, the
 * up met answers slower than the provider's timeout: an update the provider gave up on and sent again
 * may be finished by the API after the resend's answer, moving only GitBook's own `updatedAt` past the
 * one in state (the emulator's fault model, not a difference the provider made: everything the program
 * declares is still compared).
 */
export async function expectConverged(d: Deployment, decls: Decl[], opts: { lateDuplicates?: boolean } = {}): Promise<void> {
  d.emu.faults.clear();
  expectExactlyDeclared(d, decls);
  const late = /^\S+\.updatedAt: state "([^"]+)", GitBook "([^"]+)"$/;
  const later = (line: string) => {
    const m = late.exec(line);
    return !!opts.lateDuplicates && !!m && Date.parse(m[2]!) > Date.parse(m[1]!);
  };
  expect((await differencesFromGitBook(d.emu, d.state().resources)).filter((line) => !later(line))).toEqual([]);
  // The next run, planned in this process from the checkpoint the up left (the provider's check and
  // diff of each declaration; the engine adds nothing to a plan but its order): every step "same", and
  // no write sent (plannedSteps fails on one), which is all a second `up` would show.
  expect((await plannedSteps(d.emu, decls, d.state().resources)).filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual([]);
}

/** Every file the engine wrote for this deployment (state and its backups, logs, event logs, config), and any extra text. */
export function expectTokenNowhere(d: Deployment, tokens: string[], extra: string[] = []): void {
  expect(fs.existsSync(d.statePath)).toBe(true);
  for (const [file, text] of [...filesUnder(d.dir), ...extra.map((t) => ["output", t] as const)]) {
    for (const t of tokens) expect(text.includes(t), `the API token leaked into ${file}`).toBe(false);
  }
}
