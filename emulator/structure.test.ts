// A site's structure: sections and their default site spaces, section groups, external links, sorting.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { useEmulator, siteWithSection, call, org, space, spaceTitle, must, createSite, createSection, getSite, listAll, expectError, type Json } from "../test/support/emulatorApi";

useEmulator();

describe("sections and default semantics", () => {
  it("a new section creates its space's site space as its default; the first section is the default", async () => {
    const site = await createSite();
    const base = `${org()}/sites/${site.id}`;
    const first = await createSection(site.id, { spaceId: space(0) });
    expect(first).toMatchObject({ object: "site-section", title: spaceTitle(0), path: "getting-started", default: true });
    expect(first.siteSpaces).toHaveLength(1);
    expect(first.siteSpaces[0]).toMatchObject({ default: true, section: first.id, space: { id: space(0) }, path: "getting-started" });
    // "Only defined when site is published", as the spec says of a section's URL.
    expect(first.urls.published).toBeUndefined();
    expect(first.siteSpaces[0].urls.published).toBeUndefined();
    await must("POST", `${base}/publish`, undefined, 200);
    expect((await listAll(`${base}/sections`))[0].urls.published).toBe(`https://acme.gitbook.io/product-docs/getting-started`);
    expect((await listAll(`${base}/site-spaces`))[0].urls.published).toBe(`https://acme.gitbook.io/product-docs/getting-started/getting-started`);
    expect(await getSite(site.id)).toMatchObject({ siteSpaces: 1 });

    const second = await createSection(site.id, { spaceId: space(1), title: "API", icon: "code" });
    expect(second).toMatchObject({ title: "API", path: "api", default: false, icon: "code" });
    expect(second.siteSpaces[0].default).toBe(true);
    // Paths stay unique within the site.
    expect((await createSection(site.id, { spaceId: space(2), title: "API" })).path).toBe("api-2");

    // Omitted sectionId goes to the default section.
    const extra = await must("POST", `${base}/site-spaces`, { spaceId: space(3) }, 201);
    expect(extra).toMatchObject({ section: first.id, default: false, path: "changelog" });
    const inSecond = await must("POST", `${base}/site-spaces`, { spaceId: space(3), sectionId: second.id }, 201);
    expect(inSecond).toMatchObject({ section: second.id, default: false });

    // PATCH site defaultSiteSpace targets the default section.
    await must("PATCH", base, { defaultSiteSpace: extra.id }, 200);
    let sections = await listAll(`${base}/sections`);
    expect(sections[0].siteSpaces.map((ss: Json) => [ss.id, ss.default])).toEqual([
      [first.siteSpaces[0].id, false],
      [extra.id, true],
    ]);
    expectError(await call("PATCH", base, { defaultSiteSpace: inSecond.id }), 400, "defaultSiteSpace: ");

    // PATCH section defaultSiteSpace: only its own site spaces.
    await must("PATCH", `${base}/sections/${second.id}`, { defaultSiteSpace: inSecond.id }, 200);
    expectError(await call("PATCH", `${base}/sections/${second.id}`, { defaultSiteSpace: extra.id }), 400, "defaultSiteSpace: ");

    // defaultSiteSection moves the default flag, and with it PATCH site defaultSiteSpace's target.
    await must("PATCH", base, { defaultSiteSection: second.id }, 200);
    sections = await listAll(`${base}/sections`);
    expect(sections.map((s: Json) => s.default)).toEqual([false, true, false]);
    await must("PATCH", base, { defaultSiteSpace: second.siteSpaces[0].id }, 200);
    const defaults = await listAll(`${base}/site-spaces?default=true`);
    expect(defaults.map((d: Json) => d.id).sort()).toEqual(
      [extra.id, second.siteSpaces[0].id, sections[2].siteSpaces[0].id].sort(),
    );

    // Deleting the default section deletes its site spaces and promotes another section.
    expect((await call("DELETE", `${base}/sections/${second.id}`)).status).toBe(205);
    sections = await listAll(`${base}/sections`);
    expect(sections.map((s: Json) => [s.id, s.default])).toEqual([
      [first.id, true],
      [sections[1].id, false],
    ]);
    const remaining = await listAll(`${base}/site-spaces`);
    expect(remaining.some((ss: Json) => ss.section === second.id)).toBe(false);
    expect(await getSite(site.id)).toMatchObject({ siteSpaces: remaining.length });

    // Deleting a section's default site space promotes the next one.
    expect((await call("DELETE", `${base}/site-spaces/${extra.id}`)).status).toBe(205);
    expect((await listAll(`${base}/sections`))[0].siteSpaces.map((ss: Json) => ss.default)).toEqual([true]);
  });

  it("site space PATCH changes path and space", async () => {
    const { base, section } = await siteWithSection();
    const ss = await must("PATCH", `${base}/site-spaces/${section.siteSpaces[0].id}`, { path: "v2", spaceId: space(4) }, 200);
    expect(ss).toMatchObject({ path: "v2", title: spaceTitle(4), space: { id: space(4) } });
    expectError(await call("PATCH", `${base}/site-spaces/${section.siteSpaces[0].id}`, { spaceId: "spc_nope" }), 400, "spaceId: ");
  });
});

// ------------------------------------------------------------------ site structure

describe("site structure", () => {
  /** GET .../structure as [type, id, children] trees, for order assertions. */
  type Tree = [string, string, Tree[]?];
  const treeOf = (n: Json): Tree =>
    n.object === "site-section-group" ? [n.object, n.id, n.children.map(treeOf)] : [n.object, n.id];
  async function structure(base: string): Promise<Tree[]> {
    const s = await must("GET", `${base}/structure`, undefined, 200);
    expect(s.type).toBe("sections");
    return s.structure.map(treeOf);
  }
  const sec = (id: string): Tree => ["site-section", id];
  const grp = (id: string, children: Tree[]): Tree => ["site-section-group", id, children];
  const lnk = (id: string): Tree => ["site-external-link", id];
  const sort = (base: string, item: [string, string], position: Record<string, [string, string]>) =>
    call("PATCH", `${base}/structure/sort`, {
      item: { type: item[0], id: item[1] },
      position: Object.fromEntries(Object.entries(position).map(([k, [type, id]]) => [k, { type, id }])),
    });

  /** A site with three sections A, B, C (created in that order). */
  async function siteWithThree() {
    const { site, base, section: a } = await siteWithSection();
    const b = await createSection(site.id, { spaceId: space(1) });
    const c = await createSection(site.id, { spaceId: space(2) });
    return { site, base, a, b, c };
  }

  it("a site without sections is a structure of site spaces; one with sections lists them in creation order", async () => {
    const site = await createSite({ spaces: [space(0), space(1)] });
    const base = `${org()}/sites/${site.id}`;
    const flat = await must("GET", `${base}/structure`, undefined, 200);
    expect(flat).toMatchObject({ type: "siteSpaces", structure: [{ object: "site-space", space: { id: space(0) } }, { object: "site-space", space: { id: space(1) } }] });
    const { base: other, a, b, c } = await siteWithThree();
    expect(await structure(other)).toEqual([sec(a.id), sec(b.id), sec(c.id)]);
    expectError(await call("GET", `${org()}/sites/site_nope/structure`), 404);
  });

  it("section groups hold sections, joined as the spec says: at the group's creation, the section's creation, or the section's update", async () => {
    const { site, base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "Products", icon: "box", sections: [c.id, a.id] }, 201);
    expect(group).toMatchObject({
      object: "site-section-group",
      title: "Products",
      icon: "box",
      draft: false,
      sections: [{ id: c.id }, { id: a.id }],
      children: [{ object: "site-section", id: c.id, sectionGroup: group.id }, { id: a.id }],
    });
    expect(await structure(base)).toEqual([sec(b.id), grp(group.id, [sec(c.id), sec(a.id)])]);
    // Created in the group: last there.
    const d = await createSection(site.id, { spaceId: space(3), siteSectionGroupId: group.id });
    expect(d.sectionGroup).toBe(group.id);
    // Updated into the group (last there), and back to the top level with null (last there).
    expect(await must("PATCH", `${base}/sections/${b.id}`, { siteSectionGroupId: group.id }, 200)).toMatchObject({ sectionGroup: group.id });
    expect(await structure(base)).toEqual([grp(group.id, [sec(c.id), sec(a.id), sec(d.id), sec(b.id)])]);
    expect(await must("PATCH", `${base}/sections/${c.id}`, { siteSectionGroupId: null }, 200)).not.toHaveProperty("sectionGroup");
    expect(await structure(base)).toEqual([grp(group.id, [sec(a.id), sec(d.id), sec(b.id)]), sec(c.id)]);
    // Naming the group it is in already moves nothing.
    await must("PATCH", `${base}/sections/${a.id}`, { siteSectionGroupId: group.id }, 200);
    expect(await structure(base)).toEqual([grp(group.id, [sec(a.id), sec(d.id), sec(b.id)]), sec(c.id)]);
    // The list of sections follows the structure.
    expect((await listAll(`${base}/sections`)).map((s: Json) => s.id)).toEqual([a.id, d.id, b.id, c.id]);
    expectError(await call("PATCH", `${base}/sections/${a.id}`, { siteSectionGroupId: "sitesg_nope" }), 400, "siteSectionGroupId: ");
    expectError(await call("POST", `${base}/sections`, { spaceId: space(4), siteSectionGroupId: "sitesg_nope" }), 400, "siteSectionGroupId: ");
    expectError(await call("POST", `${base}/section-groups`, { title: "G", sections: ["sitesc_nope"] }), 400, "sections: ");

    const patched = await must("PATCH", `${base}/section-groups/${group.id}`, { title: "Areas", icon: null, draft: true }, 200);
    expect(patched).toMatchObject({ title: "Areas", draft: true });
    expect(patched).not.toHaveProperty("icon");
    expect((await listAll(`${base}/section-groups`)).map((g: Json) => [g.id, g.title])).toEqual([[group.id, "Areas"]]);
  });

  it("the routes GitBook does not have are gone: a section joins or leaves a group through the section", async () => {
    const { base, a } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G" }, 201);
    expectContractViolation(/POST .*section-groups\/\S+\/sections: no operation of the spec has this path/);
    expectContractViolation(/DELETE .*section-groups\/\S+\/sections\/\S+: no operation of the spec has this path/);
    expect((await call("POST", `${base}/section-groups/${group.id}/sections`, { sectionId: a.id })).status).toBe(404);
    expect((await call("DELETE", `${base}/section-groups/${group.id}/sections/${a.id}`)).status).toBe(404);
  });

  it("deleting a group keeps what it held, in its place and order", async () => {
    const { base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G", sections: [b.id, a.id] }, 201);
    const link = await must("POST", `${base}/external-links`, { title: "Status", url: "https://status.acme.test", parent: group.id }, 201);
    expect((await sort(base, ["site-section", c.id], { before: ["site-section-group", group.id] })).status).toBe(200);
    expect(await structure(base)).toEqual([sec(c.id), grp(group.id, [sec(b.id), sec(a.id), lnk(link.id)])]);
    expect((await call("DELETE", `${base}/section-groups/${group.id}`)).status).toBe(205);
    expect(await structure(base)).toEqual([sec(c.id), sec(b.id), sec(a.id), lnk(link.id)]);
    expect((await listAll(`${base}/sections`)).every((s: Json) => s.sectionGroup === undefined)).toBe(true);
  });

  it("nests groups, and refuses to put a group inside itself", async () => {
    const { base, a } = await siteWithThree();
    const outer = await must("POST", `${base}/section-groups`, { title: "Outer" }, 201);
    const inner = await must("POST", `${base}/section-groups`, { title: "Inner", parent: outer.id, sections: [a.id], draft: true }, 201);
    expect(inner).toMatchObject({ sectionGroup: outer.id, draft: true });
    expect((await structure(base)).find((t) => t[1] === outer.id)).toEqual(grp(outer.id, [grp(inner.id, [sec(a.id)])]));
    expectError(await call("PATCH", `${base}/section-groups/${outer.id}`, { parentSectionGroupId: inner.id }), 400, "parentSectionGroupId: ");
    expectError(await call("PATCH", `${base}/section-groups/${outer.id}`, { parentSectionGroupId: outer.id }), 400, "parentSectionGroupId: ");
    expect(await must("PATCH", `${base}/section-groups/${inner.id}`, { parentSectionGroupId: null }, 200)).not.toHaveProperty("sectionGroup");
    expect((await structure(base)).at(-1)).toEqual(grp(inner.id, [sec(a.id)]));
    // Moved back in by PATCH: last in its new container, with what it holds.
    const other = await must("POST", `${base}/section-groups`, { title: "Other", parent: outer.id }, 201);
    expect(await must("PATCH", `${base}/section-groups/${inner.id}`, { parentSectionGroupId: outer.id }, 200)).toMatchObject({ sectionGroup: outer.id });
    expect((await structure(base)).find((t) => t[1] === outer.id)).toEqual(grp(outer.id, [grp(other.id, []), grp(inner.id, [sec(a.id)])]));
  });

  it("external links: at the top level or in a group, never in a site without sections", async () => {
    const empty = await createSite();
    expectError(await call("POST", `${org()}/sites/${empty.id}/external-links`, { title: "Blog", url: "https://blog.acme.test" }), 400, "parent: ");
    const { base, a } = await siteWithThree();
    const link = await must("POST", `${base}/external-links`, { title: "Blog", url: "https://blog.acme.test", icon: "rss", condition: "visitor.claims.beta" }, 201);
    expect(link).toEqual({
      object: "site-external-link",
      id: expect.stringMatching(/^sitel_/),
      title: "Blog",
      url: "https://blog.acme.test",
      icon: "rss",
      draft: false,
      condition: "visitor.claims.beta",
    });
    const group = await must("POST", `${base}/section-groups`, { title: "More" }, 201);
    const moved = await must("PATCH", `${base}/external-links/${link.id}`, { parent: group.id, description: "News", icon: null, draft: true }, 200);
    expect(moved).toMatchObject({ sectionGroup: group.id, description: "News", draft: true });
    expect(moved).not.toHaveProperty("icon");
    expect((await structure(base)).at(-1)).toEqual(grp(group.id, [lnk(link.id)]));
    const back = await must("PATCH", `${base}/external-links/${link.id}`, { parent: null, condition: null, url: "https://acme.test/blog" }, 200);
    expect(back).not.toHaveProperty("sectionGroup");
    expect(back).not.toHaveProperty("condition");
    expect(back.url).toBe("https://acme.test/blog");
    expect((await structure(base)).slice(0, 1)).toEqual([sec(a.id)]);
    expect((await structure(base)).at(-1)).toEqual(lnk(link.id));

    expectContractViolation(/addExternalLinkToSite request body \/title: is required/);
    expectContractViolation(/addExternalLinkToSite request body \/url: is required/);
    expectError(await call("POST", `${base}/external-links`, { url: "https://blog.acme.test" }), 400, "title: is required");
    expectError(await call("POST", `${base}/external-links`, { title: "Blog" }), 400, "url: is required");
    expectError(await call("POST", `${base}/external-links`, { title: "Blog", url: "https://x.test", parent: "sitesg_nope" }), 400, "parent: ");
    expectError(await call("PATCH", `${base}/external-links/sitel_nope`, { title: "Blog" }), 404);
    expect((await call("DELETE", `${base}/external-links/${link.id}`)).status).toBe(205);
    expect((await call("DELETE", `${base}/external-links/${link.id}`)).status).toBe(204);
    expect((await structure(base)).some((t) => t[1] === link.id)).toBe(false);
  });

  it("external links and section groups keep to GitBook's limits", async () => {
    const { base } = await siteWithThree();
    const link = await must("POST", `${base}/external-links`, { title: "Bl", url: `https://a.test/${"x".repeat(2048 - 15)}`, description: "d".repeat(256), icon: "i".repeat(50) }, 201);
    const group = await must("POST", `${base}/section-groups`, { title: "g".repeat(100) }, 201);
    await must("PATCH", `${base}/section-groups/${group.id}`, { title: "G" }, 200);
    // Each refused by the spec too: [operation, method, path, body, field, message].
    const bad: [string, string, string, unknown, string, string][] = [
      ["addExternalLinkToSite", "POST", `${base}/external-links`, { title: "B", url: "https://a.test" }, "title", "must be 2 to 128 characters"],
      ["addExternalLinkToSite", "POST", `${base}/external-links`, { title: "t".repeat(129), url: "https://a.test" }, "title", "must be 2 to 128 characters"],
      ["addExternalLinkToSite", "POST", `${base}/external-links`, { title: "Blog", url: `https://a.test/${"x".repeat(2048 - 14)}` }, "url", "must be at most 2048 characters"],
      ["updateSiteExternalLinkById", "PATCH", `${base}/external-links/${link.id}`, { description: "d".repeat(257) }, "description", "must be at most 256 characters"],
      ["updateSiteExternalLinkById", "PATCH", `${base}/external-links/${link.id}`, { icon: "i".repeat(51) }, "icon", "must be at most 50 characters"],
      ["addSectionGroupToSite", "POST", `${base}/section-groups`, { title: "" }, "title", "must be 1 to 100 characters"],
      ["updateSiteSectionGroupById", "PATCH", `${base}/section-groups/${group.id}`, { title: "g".repeat(101) }, "title", "must be 1 to 100 characters"],
    ];
    for (const [operation, method, path, body, field, message] of bad) {
      expectContractViolation(new RegExp(`${operation} request body /${field}`));
      expectError(await call(method, path, body), 400, `${field}: ${message}`);
    }
    // A URI the schema takes, but GitBook says a link's destination must be an absolute http(s) URL.
    expectError(await call("PATCH", `${base}/external-links/${link.id}`, { url: "ftp://a.test" }), 400, "url: must be a valid absolute http(s) URL");
    expectError(await call("POST", `${base}/external-links`, { title: "Blog", url: "mailto:blog@acme.test" }), 400, "url: must be a valid absolute http(s) URL");
  });

  it("sorts an item before or after a sibling, and every list follows", async () => {
    const { site, base, a, b, c } = await siteWithThree();
    const link = await must("POST", `${base}/external-links`, { title: "Blog", url: "https://blog.acme.test" }, 201);
    const moved = await sort(base, ["site-section", c.id], { before: ["site-section", a.id] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: "site-section", id: c.id });
    expect((await sort(base, ["site-external-link", link.id], { after: ["site-section", c.id] })).body).toMatchObject({ object: "site-external-link" });
    expect(await structure(base)).toEqual([sec(c.id), lnk(link.id), sec(a.id), sec(b.id)]);
    expect((await listAll(`${base}/sections`)).map((s: Json) => s.id)).toEqual([c.id, a.id, b.id]);
    // Before itself: nothing moves.
    expect((await sort(base, ["site-section", a.id], { before: ["site-section", a.id] })).status).toBe(200);
    expect(await structure(base)).toEqual([sec(c.id), lnk(link.id), sec(a.id), sec(b.id)]);

    // Site spaces within their section; the section's list of site spaces and the site's follow.
    const extra = await must("POST", `${base}/site-spaces`, { spaceId: space(4), sectionId: a.id }, 201);
    const own = a.siteSpaces[0].id;
    expect((await sort(base, ["site-space", extra.id], { before: ["site-space", own] })).body).toMatchObject({ object: "site-space", id: extra.id });
    const sections = await listAll(`${base}/sections`);
    expect(sections.find((s: Json) => s.id === a.id).siteSpaces.map((ss: Json) => ss.id)).toEqual([extra.id, own]);
    expect((await listAll(`${base}/site-spaces`)).map((ss: Json) => ss.id)).toEqual([c.siteSpaces[0].id, extra.id, own, b.siteSpaces[0].id]);
    const full = await must("GET", `${base}/structure`, undefined, 200);
    expect(full.structure[2].siteSpaces.map((ss: Json) => ss.id)).toEqual([extra.id, own]);
    // The default site space is the section's pointer, whatever the order.
    expect(sections.find((s: Json) => s.id === a.id).siteSpaces.map((ss: Json) => ss.default)).toEqual([false, true]);
    expect(await getSite(site.id)).toMatchObject({ siteSpaces: 4 });
  });

  it("sorts within a group only, and says how to move between containers", async () => {
    const { base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G", sections: [a.id, b.id] }, 201);
    expect((await sort(base, ["site-section", b.id], { before: ["site-section", a.id] })).status).toBe(200);
    expect(await structure(base)).toEqual([sec(c.id), grp(group.id, [sec(b.id), sec(a.id)])]);
    const notSibling = await sort(base, ["site-section", c.id], { after: ["site-section", a.id] });
    expectError(notSibling, 400, "position.after: ");
    expect(notSibling.body.error.message).toContain("sibling");
    expectError(await sort(base, ["site-section", "sitesc_nope"], { after: ["site-section", a.id] }), 400, "item: ");
    expectError(await sort(base, ["site-section-group", a.id], { after: ["site-section", c.id] }), 400, "item: ");
    expectError(await sort(base, ["site-section", c.id], { after: ["site-section", "sitesc_nope"] }), 400, "position.after: ");
    expectError(await call("PATCH", `${base}/structure/sort`, { item: { type: "site-section", id: c.id }, position: {} }), 400, "position: ");
    expectError(
      await call("PATCH", `${base}/structure/sort`, {
        item: { type: "site-section", id: c.id },
        position: { before: { type: "site-section-group", id: group.id }, after: { type: "site-section-group", id: group.id } },
      }),
      400,
      "position: ",
    );
    expectContractViolation(/sortSiteStructure request body \/item: must have required property 'type'|sortSiteStructure request body \/item\/type/);
    expectError(await call("PATCH", `${base}/structure/sort`, { item: { id: c.id }, position: {} }), 400, "item.type: is required");
    expect(await structure(base)).toEqual([sec(c.id), grp(group.id, [sec(b.id), sec(a.id)])]);
  });

  it("pages through sections in structure order", async () => {
    const { base, a, b, c } = await siteWithThree();
    const group = await must("POST", `${base}/section-groups`, { title: "G", sections: [a.id] }, 201);
    await sort(base, ["site-section-group", group.id], { after: ["site-section", c.id] });
    const p1 = await must("GET", `${base}/sections?limit=2`, undefined, 200);
    expect(p1.items.map((s: Json) => s.id)).toEqual([b.id, c.id]);
    const p2 = await must("GET", `${base}/sections?limit=2&page=${p1.next.page}`, undefined, 200);
    expect(p2.items.map((s: Json) => s.id)).toEqual([a.id]);
    expect(p2).not.toHaveProperty("next");
  });
});
