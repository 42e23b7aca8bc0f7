/**
 * The first line of a failed provider call's message: `<Kind> <name>: <input>: <cause>`, or
 * `<Kind> <name>: <cause>` when no one input is to blame; what became of the object and which request
 * failed follow on the next lines.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AuthError, ConnectionError, ValidationError } from "../client";
import { ConfigError } from "../config";
import type { Resource } from "./define";
import { explainFailure, PartialFailure } from "./failure";
import { NAME_KEY, resourceProps } from "./resource";

const def = {
  kind: "SiteSection",
  schema: z.object({ siteId: z.string(), spaceId: z.string(), title: z.string().optional() }),
} as unknown as Resource;
const named = { [NAME_KEY]: "docs/guides", siteId: "site_1", spaceId: "spc_nope" };
const post = { method: "POST", path: "/v1/orgs/o/sites/site_1/sections" };

const explain = (e: unknown, props: Record<string, unknown> | undefined = named, id?: string) => (explainFailure(def, props, id, e) as Error).message;

describe("a failure's message", () => {
  it("leads with the resource, the input the API names and the API's words, then the request", () => {
    const e = new ValidationError(400, 'spaceId: no space "spc_nope" in this organization', post);
    expect(explain(e)).toBe('SiteSection docs/guides: spaceId: no space "spc_nope" in this organization\n(GitBook API 400 on POST /v1/orgs/o/sites/site_1/sections)');
    expect(e).toBeInstanceOf(ValidationError);
  });

  it("keeps the whole API error on the first line when no input is to blame", () => {
    const e = new AuthError(401, "Invalid or revoked API token (check gitbook:token or GITBOOK_TOKEN: the token is missing, invalid or revoked)", post);
    expect(explain(e)).toBe(`SiteSection docs/guides: GitBook API 401 on POST /v1/orgs/o/sites/site_1/sections: Invalid or revoked API token (check gitbook:token or GITBOOK_TOKEN: the token is missing, invalid or revoked)`);
    expect(explain(new ConnectionError("ECONNREFUSED", "connect ECONNREFUSED", post), { [NAME_KEY]: "x" })).toMatch(/^SiteSection x: GitBook API POST \S+ failed: ECONNREFUSED/);
  });

  it("says what became of a partly created object, and that it is kept, below the cause", () => {
    const cause = new ValidationError(400, "add: unknown user \"grace@acme.test\" (not a member of this organization)", { method: "PUT", path: "/v1/orgs/o/teams/team_1/members" });
    const e = new PartialFailure("team_1", {}, [`team team_1 exists but its membership could not be applied: ${cause.message}`], { cause, field: "members", apiFields: ["add"] });
    const team = { kind: "Team", schema: z.object({ title: z.string(), members: z.array(z.string()) }) } as unknown as Resource;
    const out = explainFailure(team, { [NAME_KEY]: "docs-writers" }, undefined, e) as PartialFailure;
    const expected = [
      'Team docs-writers: members: unknown user "grace@acme.test" (not a member of this organization)',
      "team team_1 exists but its membership could not be applied; it is kept in state, and the next `up` continues from there",
      "(GitBook API 400 on PUT /v1/orgs/o/teams/team_1/members)",
    ].join("\n");
    expect(out.message).toBe(expected);
    // The engine shows a partial failure's reasons rather than its message.
    expect(out.reasons).toEqual([expected]);
    expect(out).toMatchObject({ id: "team_1" });
  });

  it("names the object by ID where the program's name is not known (refresh, destroy), and drops a repeated kind", () => {
    expect(explain(new Error("SiteSection: section sec_1 no longer exists in site site_1"), {}, "sec_1")).toBe("SiteSection sec_1: section sec_1 no longer exists in site site_1");
  });

  it("leaves a malformed setting's message alone: it is about no resource", () => {
    const e = new ConfigError('gitbook:apiUrl is "notaurl", which is not an absolute URL');
    expect(explain(e)).toBe('gitbook:apiUrl is "notaurl", which is not an absolute URL');
  });

  it("is rewritten once, however many layers pass it on", () => {
    const e = new ValidationError(400, "title: too long", post);
    expect(explain(explainFailure(def, named, undefined, e))).toBe("SiteSection docs/guides: title: too long\n(GitBook API 400 on POST /v1/orgs/o/sites/site_1/sections)");
  });
});

describe("the name a resource carries", () => {
  it("is the program's name for it, beside its inputs", () => {
    expect(resourceProps("docs/guides", { siteId: "s" }, ["urls"])).toEqual({
      siteId: "s",
      urls: undefined,
      [NAME_KEY]: "docs/guides",
    });
  });
});

describe("an API message naming a body field by its wire name", () => {
  it("names the input it comes from, for every kind whose inputs are sent under another name", async () => {
    const { resources } = await import("../resources");
    const renamed = resources.flatMap((d) => Object.entries(d.patch.wire ?? {}).map(([input, wire]) => ({ d, input, wire })));
    expect(renamed.length).toBeGreaterThan(0);
    for (const { d, input, wire } of renamed) {
      // As GitBook (and the emulator) answer a POST naming a group that does not exist.
      const e = new ValidationError(400, `${wire}: no section group "sitesg_nope" in this site`, post);
      expect((explainFailure(d, named, undefined, e) as Error).message, `${d.kind}.${input}`).toBe(
        `${d.kind} docs/guides: ${input}: no section group "sitesg_nope" in this site\n(GitBook API 400 on POST /v1/orgs/o/sites/site_1/sections)`,
      );
    }
  });
});

describe("one error shared by several resources' calls", () => {
  it("names each resource in its own message: a listing failed once fails every call that shared it", () => {
    // A shared listing (GitbookClient.listAll, getShared) rejects every caller with one error object.
    const shared = new ValidationError(400, "the site's structure could not be read", { method: "GET", path: "/v1/orgs/o/sites/site_1/structure" });
    const a = explainFailure(def, { [NAME_KEY]: "linkA" }, "l1", shared) as Error;
    const b = explainFailure(def, { [NAME_KEY]: "linkB" }, "l2", shared) as Error;
    expect(a.message).toMatch(/^SiteSection linkA: GitBook API 400 on GET/);
    expect(b.message).toMatch(/^SiteSection linkB: GitBook API 400 on GET/);
    // Still the API's error class, status and request for the engine and callers.
    expect(b).toBeInstanceOf(ValidationError);
    expect((b as ValidationError).status).toBe(400);
    // Rewritten once per resource, however many layers pass it on.
    expect((explainFailure(def, { [NAME_KEY]: "linkB" }, "l2", b) as Error).message).toBe(b.message);
  });
});
