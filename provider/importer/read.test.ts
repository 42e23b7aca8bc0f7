/**
 * The reader where the API answers differently from the emulator's usual answers. (What it reads from
 * a whole organization, and in how many requests, is command.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { GitbookClient, type Query } from "../client";
import { Emulator } from "../../emulator";
import { seedOrganization, type SeededOrganization } from "../../test/import/organization";
import { readOrganization } from "./read";

let emu: Emulator;
let seeded: SeededOrganization;
beforeAll(async () => {
  emu = await Emulator.start();
  seeded = await seedOrganization(emu);
});
afterAll(async () => emu?.close());

/** A client whose section listings come without their site spaces, which the API's schema allows. */
class SectionsWithoutSiteSpaces extends GitbookClient {
  override async listAll<T>(path: string, item: z.ZodType<T>, query?: Query): Promise<T[]> {
    const items = await super.listAll(path, item, query);
    return path.endsWith("/sections") ? items.map((s) => ({ ...s, siteSpaces: undefined })) : items;
  }
}

describe("readOrganization", () => {
  it("reads a site's site spaces from its own list when the sections do not carry them, once per site", async () => {
    const read = (client: GitbookClient) => readOrganization(client, { organizationId: seeded.org, siteIds: [seeded.siteIds[0]!] });
    const plain = new GitbookClient({ token: emu.token, apiUrl: emu.url });
    const stripped = new SectionsWithoutSiteSpaces({ token: emu.token, apiUrl: emu.url });
    try {
      const expected = await read(plain);
      emu.log.reset();
      const fromList = await read(stripped);
      expect(fromList).toEqual(expected);
      expect(emu.log.count({ route: "/v1/orgs/:org/sites/:site/site-spaces" })).toBe(1);
      // Sections come in the site's structure order: each group's where the group is.
      expect(fromList.sites[0]!.sections.map((s) => s.siteSpaces.length)).toEqual([1, 3, 1, 2, 1]);
    } finally {
      await plain.close();
      await stripped.close();
    }
  });
});
