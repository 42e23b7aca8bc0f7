/**
 * A top-level SiteExternalLink declared beside the site's first section, with no dependsOn between
 * them (issue 20 item 5): GitBook takes links only in a site made of sections, and the engine may
 * create the link first. Through the real CLI, in either declaration order, and with the section's
 * create held back (a latency fault) so that the link's POST reaches GitBook first, `up` succeeds and
 * the next preview plans nothing.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

describeDeployments("a top-level external link and the site's first section, declared independently", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const program = (title: string, linkFirst: boolean): Decl[] => {
    const site: Decl = { kind: "Site", name: `site-${title}`, args: { title: `Links ${title}` } };
    const link: Decl = { kind: "SiteExternalLink", name: `link-${title}`, args: { siteId: ref(`site-${title}.id`), title: "Status", url: "https://status.acme.test" } };
    const section: Decl = { kind: "SiteSection", name: `section-${title}`, args: { siteId: ref(`site-${title}.id`), spaceId: d.emu.seeded.spaceIds[0] } };
    return linkFirst ? [site, link, section] : [site, section, link];
  };

  // The two cases whose section's POST is held back share a run: both sections' POSTs are held (the
  // only sections of that run), and each link reaches GitBook first.
  for (const cases of [
    [["link-first", true], ["section-first", false]],
    [["as-it-comes", false]],
  ] as const) {
    const slow = cases.length > 1;
    it(`creates both (${cases.map(([t]) => t).join(" and ")}${slow ? ", each section's POST held back" : ""}), and plans nothing after`, async () => {
      const fault = slow ? d.emu.faults.add({ match: { method: "POST", route: /\/sections$/ }, latencyMs: 3000, times: cases.length }) : undefined;
      const decls = cases.flatMap(([title, linkFirst]) => program(title, linkFirst));
      const preview = await d.run("preview", decls);
      expect(preview.error).toBeUndefined();
      const r = await d.run("up", decls);
      fault?.remove();
      expect(r.error).toBeUndefined();
      for (const [title] of cases) {
        const siteId = d.resource(`site-${title}`).id!;
        expect([...d.emu.store.externalLinks.values()].filter((l) => l.siteId === siteId).map((l) => l.id), title).toEqual([d.resource(`link-${title}`).id]);
      }
      const again = await d.run("preview", decls, { flags: ["--expect-no-changes"] });
      expect(again.error).toBeUndefined();
    });
  }
});
