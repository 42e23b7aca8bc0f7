// A Pulumi program whose resources come from config, so each lifecycle test step can declare a
// different program without writing one. Arguments may refer to another resource's output with
// {"$ref": "<name>.<output>"} or to a field inside it with {"$ref": "<name>.<output>.<field>"}, mark a
// value secret with {"$secret": value}, and read secret stack config with
// {"$secretConfig": "<key in the lifecycle namespace>"}. With `lifecycle:exports` set to
// `none` it exports nothing; set to a JSON list of names, the IDs of those alone.
const pulumi = require("@pulumi/pulumi");
const gitbook = require("pulumi-gitbook");

module.exports = async () => {
  const config = new pulumi.Config("lifecycle");
  const decls = config.requireObject("resources");
  const made = {};
  const resolve = (v) => {
    if (Array.isArray(v)) return v.map(resolve);
    if (v && typeof v === "object") {
      if ("$secret" in v) return pulumi.secret(resolve(v.$secret));
      if (typeof v.$secretConfig === "string") return new pulumi.Config("lifecycle").requireSecret(v.$secretConfig);
      if (typeof v.$ref === "string") {
        const [name, output, ...path] = v.$ref.split(".");
        const out = made[name][output];
        return path.length ? out.apply((x) => path.reduce((o, k) => (o == null ? o : o[k]), x)) : out;
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    }
    return v;
  };
  for (const d of decls) {
    const opts = { ...(d.dependsOn && { dependsOn: d.dependsOn.map((n) => made[n]) }), ...(d.retainOnDelete && { retainOnDelete: true }) };
    made[d.name] = new gitbook[d.kind](d.name, resolve(d.args), opts);
  }
  // `lifecycle:exports: none`: a program that uses no resource's outputs; a JSON list: only those named.
  const exported = config.get("exports");
  if (exported === "none") return {};
  const names = exported === undefined ? Object.keys(made) : JSON.parse(exported);
  return Object.fromEntries(names.map((n) => [n, made[n].id]));
};
