/**
 * The reader: what it takes from a site's structure, and where the API answers differently from the
 * emulator's usual answers. (What it reads from a whole organization, and in how many requests, is
 * command.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitbookClient, type RequestOptions } from "../client";
import { Emulator } from "../../emulator";
import { seedOrganization, VISITOR_SCHEMA, type SeededOrganization } from "../../test/import/organization";
import { readOrganization } from "./read";

let emu: Emulator;
let seeded: SeededOrganization;
beforeAll(async () => {
  emu = await Emulator.start();
  seeded = await seedOrganization(emu);
});
afterAll(async () => emu?.close());

/** A client whose answers about a site's structure `edit` changes first, as another API might answer. */
class EditedStructure extends GitbookClient {
  constructor(private readonly edit: (item: Record<string, unknown>) => Record<string, unknown>) {
    super({ token: emu.token, apiUrl: emu.url });
  }
  override async get<T>(path: string, opts: Omit<RequestOptions<T>, "body"> = {}): Promise<T> {
    const answer = await super.get(path, opts);
    if (!path.endsWith("/structure")) return answer;
    const walk = (item: Record<string, unknown>): Record<string, unknown> => {
      const edited = this.edit(item);
      const children = edited.children as Record<string, unknown>[] | undefined;
      return children ? { ...edited, children: children.map(walk) } : edited;
    };
    const structure = answer as { structure: Record<string, unknown>[] };
    return { ...structure, structure: structure.structure.map(walk) } as T;
  }
}

const readSite = (client: GitbookClient, site: string) => readOrganization(client, { organizationId: seeded.org, siteIds: [site] });

describe("readOrganization", () => {
  it("takes a site's navigation from its structure, in its order, with the group each item is in", async () => {
    const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    try {
      emu.log.reset();
      const { sites } = await readSite(client, seeded.siteIds[0]!);
      expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site/structure" })).toBe(1);
      const s = sites[0]!;
      const title = new Map<string, string>([...s.sections, ...s.sectionGroups, ...s.externalLinks].map((x) => [x.id, x.title]));
      const titles = (ids: string[]) => ids.map((id) => title.get(id));
      // As the seed sorted it, not as it was created.
      expect(titles(s.topLevel)).toEqual(["Getting started", "Reference", "Build", "Beta forum"]);
      expect(s.sectionGroups.map((g) => [g.title, titles(g.itemIds)])).toEqual([
        ["Reference", ["API status", "API reference", "Changelog"]],
        ["Build", ["Guides", "SDKs"]],
      ]);
      expect(s.sections.map((x) => [x.title, x.groupId && title.get(x.groupId)])).toEqual([
        ["Getting started", undefined],
        ["API reference", "Reference"],
        ["Changelog", "Reference"],
        ["Guides", "Build"],
        ["SDKs", "Build"],
      ]);
      expect(s.sections[3]!.siteSpaces.map((ss) => ss.path)).toEqual(["guides", "internal", "typescript"]);
      expect(s.externalLinks).toEqual([
        { id: expect.any(String), title: "API status", url: "https://status.acme.test", icon: "signal", draft: false, groupId: s.sectionGroups[0]!.id },
        { id: expect.any(String), title: "Beta forum", url: "https://forum.acme.test/beta", description: "Talk to the team", draft: false, condition: "visitor.claims.unsigned.beta == true" },
      ]);
      expect(s.published).toBe(true);
      expect(s.adaptiveSchema).toEqual(VISITOR_SCHEMA);
      expect(s.unknownItems).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("reads the overrides of a section's variants only (one GET each), as what a site space shows over its site's branding", async () => {
    const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    try {
      emu.log.reset();
      const s = (await readSite(client, seeded.siteIds[0]!)).sites[0]!;
      // "Guides" shows three site spaces and "API reference" two; the sections showing one space cost nothing.
      expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site/site-spaces/:siteSpace/customization" })).toBe(5);
      expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site/customization" })).toBe(1);
      const overridden = s.sections.flatMap((x) => x.siteSpaces).filter((ss) => ss.customization !== undefined);
      expect(overridden.map((ss) => [ss.path, ss.customization])).toEqual([
        ["typescript", { id: overridden[0]!.id, siteId: s.id, siteSpaceId: overridden[0]!.id, title: "Acme for TypeScript", styling: { primaryColor: { light: "#3178c6", dark: "#235a97" } } }],
      ]);
    } finally {
      await client.close();
    }
  });

  it("reads a site without a visitor schema (404) as having none, and an unpublished site as such", async () => {
    const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    try {
      const s = (await readSite(client, seeded.siteIds[1]!)).sites[0]!;
      expect(s.adaptiveSchema).toBeUndefined();
      expect(s.published).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("takes the spaces shown from the site spaces, and their collections up to the top level, in one listing", async () => {
    const client = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    try {
      emu.log.reset();
      const snapshot = await readSite(client, seeded.siteIds[0]!);
      expect(emu.log.count({ route: "/v1/spaces/:space" })).toBe(0);
      expect(emu.log.count({ route: "/v1/orgs/:org/collections" })).toBe(1);
      const byTitle = new Map(snapshot.spaces.map((s) => [s.title, s]));
      expect(snapshot.spaces).toHaveLength(6);
      const [products, sdks] = [snapshot.collections.find((c) => c.title === "Acme products")!, snapshot.collections.find((c) => c.title === "SDKs")!];
      expect(byTitle.get("Guides")).toMatchObject({ emoji: "🧭", parent: products.id, language: "en", editMode: "locked", defaultLevel: "inherit" });
      expect(byTitle.get("SDK for TypeScript")!.parent).toBe(sdks.id);
      expect(byTitle.get("Internal handbook")).toMatchObject({ defaultLevel: "read" });
      expect(byTitle.get("Getting started")!.parent).toBeUndefined();
      expect(snapshot.collections).toHaveLength(2);
      expect(products).toEqual({ id: products.id, title: "Acme products", description: "Everything we ship", defaultLevel: "read" });
      expect(sdks).toEqual({ id: sdks.id, title: "SDKs", parent: products.id, defaultLevel: "inherit" });
    } finally {
      await client.close();
    }
  });

  it("reads a space alone only when a site space embeds less than the whole space", async () => {
    const plain = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    const strip = (ss: unknown) => ({ ...(ss as Record<string, unknown>), space: { id: ((ss as { space: { id: string } }).space).id } });
    const partial = new EditedStructure((item) => (item.siteSpaces ? { ...item, siteSpaces: (item.siteSpaces as unknown[]).map(strip) } : item));
    try {
      const expected = await readSite(plain, seeded.siteIds[1]!);
      emu.log.reset();
      const got = await readSite(partial, seeded.siteIds[1]!);
      // Titles come from the site spaces for naming; the settings from each space, read once.
      expect(got.spaces).toEqual(expected.spaces);
      expect(emu.log.count({ route: "/v1/spaces/:space" })).toBe(4);
    } finally {
      await plain.close();
      await partial.close();
    }
  });

  it("reads a site's site spaces from its own list when the sections do not carry them, once per site", async () => {
    const plain = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    const stripped = new EditedStructure((item) => (item.object === "site-section" ? { ...item, siteSpaces: undefined } : item));
    try {
      const expected = await readSite(plain, seeded.siteIds[0]!);
      emu.log.reset();
      const fromList = await readSite(stripped, seeded.siteIds[0]!);
      expect(fromList).toEqual(expected);
      expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site/site-spaces" })).toBe(1);
      // Sections come in the site's structure order: each group's where the group is.
      expect(fromList.sites[0]!.sections.map((s) => s.siteSpaces.length)).toEqual([1, 2, 1, 3, 1]);
    } finally {
      await plain.close();
      await stripped.close();
    }
  });
});
