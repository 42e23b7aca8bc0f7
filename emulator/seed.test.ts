// Seed files: the shipped example (every kind the emulator models) read back through the API, the
// built-in seed, and a bad file refused naming each path into it before a port is taken.
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

import { Emulator } from "./emulator";
import { SeedError, type SeedFile } from "./seed";

const EXAMPLE = path.resolve(__dirname, "../examples/emulator/seed.json");

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(path: string): Promise<any> {
  const res = await fetch(`${emu!.url}/v1${path}`, { headers: { authorization: `Bearer ${emu!.token}` } });
  expect(res.status, path).toBe(200);
  return res.json();
}

async function refused(seedFile: unknown): Promise<string[]> {
  const e = await Emulator.start({ seedFile: seedFile as SeedFile }).then(
    async (started) => {
      await started.close();
      throw new Error("started");
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SeedError);
  return (e as SeedError).problems;
}

describe("the example seed file", () => {
  it("seeds every kind it describes, readable through the API as the app made them", async () => {
    emu = await Emulator.start({ seedFile: EXAMPLE });
    const { organizationId: org, ids } = emu.seeded;
    expect((await get(`/orgs/${org}`)).title).toBe("Acme Docs");
    expect((await get(`/orgs/${org}/members`)).items.map((m: { user: { email: string } }) => m.user.email)).toEqual(["ada@acme.test", "grace@acme.test", "guest@partner.test"]);

    expect(await get(`/collections/${ids.apis}`)).toMatchObject({ title: "APIs", parent: ids.product });
    expect(await get(`/spaces/${ids.api}`)).toMatchObject({ title: "API reference", parent: ids.apis });

    const site = await get(`/orgs/${org}/sites/${ids.docs}`);
    expect(site).toMatchObject({ title: "Product docs", hostname: "docs.acme.test", published: true, adaptiveContent: { enabled: true } });
    // File order: the section before the group, the group holding two sections and the link.
    const structure = (await get(`/orgs/${org}/sites/${ids.docs}/structure`)).structure;
    expect(structure.map((n: { id: string }) => n.id)).toEqual([ids["start-section"], ids.learn]);
    expect(structure[1].children.map((n: { id: string }) => n.id)).toEqual([ids["guides-section"], ids["api-section"], ids.status]);
    const siteSpaces = (await get(`/orgs/${org}/sites/${ids.docs}/site-spaces`)).items;
    expect(siteSpaces.map((s: { space: { id: string }; path: string; default: boolean }) => [s.space.id, s.path, s.default])).toEqual([
      [ids.start, "getting-started", true],
      [ids.guides, "guides", true],
      [ids["guides-v1"], "v1", false],
      [ids.api, "api-reference", true],
    ]);
    expect((await get(`/orgs/${org}/sites/${ids.docs}/share-links`)).items).toMatchObject([{ id: ids.preview, name: "Partner preview", active: true }]);
    expect((await get(`/orgs/${org}/sites/${ids.docs}/adaptive-schema`)).jsonSchema.properties).toHaveProperty("isBetaUser");
    // A site without sections holds its site spaces at the root.
    expect((await get(`/orgs/${org}/sites/${ids["handbook-site"]}/site-spaces`)).items.map((s: { space: { id: string } }) => s.space.id)).toEqual([ids.handbook]);

    const members = (await get(`/orgs/${org}/teams/${ids.writers}/members`)).items;
    expect(members.map((m: { organization: { id: string }; team: { role: string } }) => [m.organization.id, m.team.role])).toEqual([
      [ids.ada, "owner"],
      [ids.grace, "member"],
    ]);
    expect(await get(`/orgs/${org}/saml/${ids.okta}`)).toMatchObject({ label: "Okta", defaultTeam: { id: ids.writers } });
    expect(await get(`/orgs/${org}/openapi/petstore`)).toMatchObject({ id: ids.petstore, processingState: "complete", visibility: "public" });
    expect(await get(`/orgs/${org}/sites/${ids.docs}/publishing/auth`)).toMatchObject({ backend: "custom", fallbackURL: "https://login.acme.test/gitbook", privateKey: expect.any(String) });
    expect((await get(`/orgs/${org}/sites/${ids.docs}/permissions/teams`)).items).toMatchObject([{ permission: "edit", team: { id: ids.writers } }]);
    expect((await get(`/collections/${ids.product}/permissions/users`)).items).toMatchObject([{ permission: "read", user: { id: ids.grace } }]);
    expect((await get(`/spaces/${ids.api}/permissions/teams`)).items).toMatchObject([{ permission: "review", team: { id: ids.writers } }]);
  });

  it("gives the same IDs for the same --seed", async () => {
    emu = await Emulator.start({ seedFile: EXAMPLE, seed: 7 });
    const other = await Emulator.start({ seedFile: EXAMPLE, seed: 7 });
    try {
      expect(other.seeded).toEqual(emu.seeded);
    } finally {
      await other.close();
    }
  });
});

it("seeds one organization with six spaces and five members when given no file", async () => {
  emu = await Emulator.start();
  expect([...emu.store.spaces.values()].map((s) => s.title)).toEqual(["Getting started", "API reference", "Guides", "Changelog", "SDK for TypeScript", "Internal handbook"]);
  expect(emu.seeded.members.map((m) => m.email)).toEqual(["ada@acme.test", "grace@acme.test", "alan@acme.test", "katherine@acme.test", "edsger@acme.test"]);
  expect(emu.seeded.ids).toEqual({});
});

describe("a seed file that cannot be used", () => {
  it("refuses a permission on something that holds none, or naming both a team and a member", async () => {
    const problems = await refused({
      members: [{ key: "ada", email: "ada@acme.test" }],
      teams: [{ key: "t", title: "T" }],
      permissions: [
        { on: "t", team: "t", role: "read" },
        { on: "nowhere", member: "ada", role: "read" },
      ],
    });
    expect(problems).toEqual(['permissions[0].on: no site, space or collection has the key "t"', 'permissions[1].on: no site, space or collection has the key "nowhere"']);
    expect(await refused({ teams: [{ key: "t", title: "T" }], spaces: [{ key: "s", title: "S" }], permissions: [{ on: "s", role: "read" }] })).toEqual(["permissions[0]: needs exactly one of team and member"]);
  });

  it("names each problem by its path into the file", async () => {
    const problems = await refused({
      spaces: [{ key: "s", title: "Docs" }, { key: "s", title: "Again" }],
      sites: [
        {
          title: "Docs",
          sectionGroups: [{ key: "g" }],
          sections: [{ space: "s" }, { title: "Second" }, { space: "nowhere" }, { space: "g" }],
          colour: "red",
        },
      ],
      teams: [{ title: "Writers", members: [{ member: "nobody@acme.test" }] }],
    });
    expect(problems).toEqual([
      "sites[0].sectionGroups[0].title: required",
      "sites[0].sections[1].space: required",
      'sites[0]: Unrecognized key: "colour"',
    ]);
  });

  it("checks references once the shape is right: unknown keys, keys of another kind, duplicates, loops, schemas", async () => {
    const problems = await refused({
      collections: [
        { key: "a", title: "A", parent: "b" },
        { key: "b", title: "B", parent: "a" },
      ],
      spaces: [{ key: "s", title: "Docs", collection: "s" }, { key: "s", title: "Again" }],
      sites: [{ title: "Docs", sections: [{ space: "nowhere" }], adaptiveSchema: { type: "object", properties: {} } }],
      teams: [{ title: "Writers", members: [{ member: "nobody@acme.test" }] }],
    });
    expect(problems).toEqual([
      'spaces[1].key: "s" is already the key of spaces[0]',
      'spaces[0].collection: "s" is the key of a space, not of a collection',
      'collections[0].parent: "b" is inside "a" (parents may not loop)',
      'collections[1].parent: "a" is inside "b" (parents may not loop)',
      'sites[0].sections[0].space: no space has the key "nowhere"',
      "sites[0].adaptiveSchema.additionalProperties: is required",
      'teams[0].members[0].member: no member has the key "nobody@acme.test"',
    ]);
  });
});
