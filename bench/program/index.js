// The benchmark's Pulumi program. The topology comes from config as a few numbers, not as a list of
// resources: the harness passes config through one environment variable, which Linux caps at 128 KiB.
// Space IDs are derived from indexes; the bench seeds the emulator with spaces of exactly these IDs.
const pulumi = require("@pulumi/pulumi");
const gitbook = require("pulumi-gitbook");

module.exports = async () => {
  const t = new pulumi.Config("bench").requireObject("topology");
  // The baseline run: the provider host starts and is configured, and nothing else happens.
  if (t.empty) return {};
  const site = new gitbook.Site("site", { title: "Bench Docs", visibility: "share-link" });
  for (let i = 0; i < t.sections; i++) {
    const section = new gitbook.SiteSection(`section-${i}`, {
      siteId: site.id,
      spaceId: `${t.spacePrefix}${i}-0`,
      // The one-field change renames the first section.
      title: i === 0 && t.change ? "Section 0 (renamed)" : `Section ${i}`,
    });
    for (let j = 1; j <= t.siteSpacesPerSection; j++) {
      // A declared path is not accepted by POST, so every extra site space costs one PATCH too.
      new gitbook.SiteSpace(`section-${i}-space-${j}`, { siteId: site.id, sectionId: section.id, spaceId: `${t.spacePrefix}${i}-${j}`, path: `v${j + 1}` });
    }
  }
  for (let k = 0; k < t.shareLinks; k++) {
    // The last link is revoked: POST creates links active, so it costs one PATCH.
    new gitbook.ShareLink(`link-${k}`, { siteId: site.id, name: `Reviewers ${k}`, active: k !== t.shareLinks - 1 });
  }
  return { siteId: site.id };
};
