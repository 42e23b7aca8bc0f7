// The benchmark's Pulumi program. The topology comes from config as a few numbers, not as a list of
// resources: the harness passes config through one environment variable, which Linux caps at 128 KiB.
// Space IDs are derived from indexes; the bench seeds the emulator with spaces of exactly these IDs.
//
// With `nullProvider` in the topology the same resources, with the same inputs and dependencies, go
// to a dynamic provider that does nothing, so a phase's time on it is what the engine, the SDK and
// the provider host cost without this package.
const pulumi = require("@pulumi/pulumi");

// Every method returns at once and sends nothing: create echoes the inputs under a fresh ID, diff
// reports a change only when an input changed, read returns the props it was given.
function nullProvider() {
  return {
    async create(inputs) {
      return { id: require("crypto").randomUUID(), outs: inputs };
    },
    async diff(id, olds, news) {
      const changed = Object.keys({ ...olds, ...news }).some((k) => k !== "__provider" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      return { changes: changed };
    },
    async update(id, olds, news) {
      return { outs: news };
    },
    async read(id, props) {
      return { id, props };
    },
    async delete() {},
  };
}

// One provider object per kind, as the package has (the SDK serializes each provider object once).
function nullKinds() {
  const kind = (type) => {
    const provider = nullProvider();
    return class extends pulumi.dynamic.Resource {
      constructor(name, args, opts) {
        super(provider, name, args, opts, "bench", type);
      }
    };
  };
  return { Site: kind("Site"), SiteSection: kind("SiteSection"), SiteSpace: kind("SiteSpace"), ShareLink: kind("ShareLink") };
}

module.exports = async () => {
  const t = new pulumi.Config("bench").requireObject("topology");
  const gitbook = t.nullProvider ? nullKinds() : require("pulumi-gitbook");
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
