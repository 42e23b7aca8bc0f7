/**
 * A top-level SiteExternalLink declared beside the site's first section, with no dependsOn between
 * them (issue 20 item 5): GitBook takes links only in a site made of sections, and the engine may
 * create the link first. Through the real CLI, in either declaration order, and with the section's
 * create held back (a latency fault) so that the link's POST reaches GitBook first, `up` succeeds and
 * the next preview plans nothing.
 *
 * All three cases share one `up` and one preview (issue 23: engine runs are the suite's cost). Their
 * sites are made in the app beforehand and adopted, so that the fault can name the two sites whose
 * section's POST it holds back, and leave the third's as it comes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { api, ref } from "../support/scenarios";

const CASES = [
  { title: "link-first", linkFirst: true, held: true },
  { title: "section-first", linkFirst: false, held: true },
  { title: "as-it-comes", linkFirst: false, held: false },
] as const;

describeDeployments("a top-level external link and the site's first section, declared independently", () => {
  let d: Deployment;
  const siteIds: Record<string, string> = {};
  beforeAll(async () => {
    d = await startDeployment();
    for (const { title } of CASES) siteIds[title] = (await api(d.emu, "POST", `/orgs/${d.emu.seeded.organizationId}/sites`, { title: `Links ${title}` })).id;
  });
  afterAll(async () => d?.close());

  const program = (title: string, linkFirst: boolean): Decl[] => {
    const site: Decl = { kind: "Site", name: `site-${title}`, args: { title: `Links ${title}`, adoptId: siteIds[title] } };
    const link: Decl = { kind: "SiteExternalLink", name: `link-${title}`, args: { siteId: ref(`site-${title}.id`), title: "Status", url: "https://status.acme.test" } };
    const section: Decl = { kind: "SiteSection", name: `section-${title}`, args: { siteId: ref(`site-${title}.id`), spaceId: d.emu.seeded.spaceIds[0] } };
    return linkFirst ? [site, link, section] : [site, section, link];
  };

  it(`creates both (${CASES.map((c) => c.title + (c.held ? ", its section's POST held back" : "")).join("; ")}), and plans nothing after`, async () => {
    const held = CASES.filter((c) => c.held).map((c) => siteIds[c.title]);
    const fault = d.emu.faults.add({ match: { method: "POST", route: new RegExp(`/sites/(${held.join("|")})/sections$`) }, latencyMs: 3000, times: held.length });
    const decls = CASES.flatMap(({ title, linkFirst }) => program(title, linkFirst));
    const r = await d.run("up", decls);
    fault.remove();
    expect(r.error).toBeUndefined();
    for (const { title } of CASES) {
      const siteId = d.resource(`site-${title}`).id!;
      expect(siteId, title).toBe(siteIds[title]);
      expect([...d.emu.store.externalLinks.values()].filter((l) => l.siteId === siteId).map((l) => l.id), title).toEqual([d.resource(`link-${title}`).id]);
    }
    // The fault held back exactly the two sections' POSTs it names.
    expect(fault.hits).toBe(held.length);
    const again = await d.run("preview", decls, { flags: ["--expect-no-changes"] });
    expect(again.error).toBeUndefined();
  });
});
