import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../framework/check";
import { CheckFailed, startProviderEnv, type ProviderEnv, type State, rejectsAtCheck, type BadInput } from "../../test/support/provider";
import { OPENAPI_POLL } from "../config";
import { nextPollDelay } from "./openApiSpec";

let env: ProviderEnv;
beforeAll(async () => {
  // Processing takes a couple of GETs in the emulator; poll every few ms instead of every 250ms+.
  env = await startProviderEnv({ openApiPoll: { firstMs: 1, maxMs: 4 } });
});
afterAll(async () => {
  await env.close();
});
beforeEach(() => env.emu.faults.clear());

const SPECS = "/v1/orgs/:org/openapi";
const SPEC = "/v1/orgs/:org/openapi/:slug";

const doc = (title: string) => `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n`;
const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

let n = 0;
const slug = () => `spec-${++n}`;

async function created(inputs: Record<string, unknown>): Promise<State> {
  return (await env.up("OpenApiSpec", inputs)).state;
}
const live = (s: string) => env.emu.store.findOpenApiSpec(env.org, s)!;

/** Reconfigures the provider as the engine would, with another processing wait. */
async function setWaitSeconds(seconds: string) {
  const cfg: Record<string, string> = {
    "gitbook:token": env.emu.token,
    "gitbook:apiUrl": env.emu.url,
    "gitbook:organizationId": env.org,
    "gitbook:openApiWaitSeconds": seconds,
  };
  await env.call("OpenApiSpec", "configure", { config: { get: (k: string) => cfg[k] } });
}

describe("check", () => {
  const url = { url: "https://api.acme.test/openapi.json" };
  const bad: BadInput[] = [
    ["slug", { slug: "", source: url }, /^slug must be 1 to 100 characters/],
    ["slug", { slug: "a".repeat(101), source: url }, /^slug must be 1 to 100 characters/],
    // Capitals are fine (OpenAPISpecSlug); an underscore is not.
    ["slug", { slug: "Payments_API", source: url }, /^slug must match letters and digits/],
    ["slug", { slug: "payments--api", source: url }, /^slug must match letters and digits/],
    ["slug", { slug: "-payments", source: url }, /^slug must match letters and digits/],
    ["source", { slug: "s", source: {} }, /^source must set exactly one of url, file or text/],
    ["source", { slug: "s", source: { ...url, text: doc("x") } }, /^source must set exactly one of url, file or text/],
    ["source", { slug: "s", source: { file: "openapi.yaml", text: doc("x") } }, /^source must set exactly one of url, file or text/],
    ["source", { slug: "s", source: "https://api.acme.test/openapi.json" }, /^source must be an object \{url\}, \{file\} or \{text\}/],
    ["source", { slug: "s", source: { path: "openapi.yaml" } }, /^source has unknown field\(s\) path: use url, file or text/],
    ["source", { slug: "s", source: { url: "https://api.acme.test/o.json", sha256: "abc" } }, /^source has unknown field\(s\) sha256/],
    ["source.file", { slug: "s", source: { file: "" } }, /^source\.file must not be empty/],
    ["source.file", { slug: "s", source: { file: "no/such/openapi.yaml" } }, /^source\.file cannot read "no\/such\/openapi\.yaml" \(looked for as \/\S+\/no\/such\/openapi\.yaml\): no such file$/],
    ["source.url", { slug: "s", source: { url: "api.acme.test/openapi.json" } }, /^source\.url must be an absolute http\(s\) URL/],
    ["source.url", { slug: "s", source: { url: `https://api.acme.test/${"o".repeat(2027)}` } }, /^source\.url must be at most 2048 characters/],
    ["source.text", { slug: "s", source: { text: "" } }, /^source\.text must not be empty/],
    ["visibility", { slug: "s", source: url, visibility: "unlisted" }, /^visibility must be private or public/],
  ];
  rejectsAtCheck(() => env, "OpenApiSpec", {}, bad);

  it("requires a slug and a source", async () => {
    const r = await env.check("OpenApiSpec", {});
    expect(r.failures).toEqual(
      expect.arrayContaining([
        { property: "slug", reason: "slug is required" },
        { property: "source", reason: expect.stringMatching(/^source /) },
      ]),
    );
  });

  it("accepts the limits exactly, and adds no visibility the program did not declare", async () => {
    const r = await env.check("OpenApiSpec", { slug: "a".repeat(100), source: { url: `https://api.acme.test/${"o".repeat(2026)}` } });
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toMatchObject({ organizationId: env.org });
    expect(r.inputs).not.toHaveProperty("visibility");
  });

  it("skips values not known until apply", async () => {
    expect((await env.check("OpenApiSpec", { slug: UNKNOWN, source: UNKNOWN })).failures).toBeUndefined();
    expect((await env.check("OpenApiSpec", { slug: "s", source: { url: UNKNOWN } })).failures).toBeUndefined();
  });

  it("fails up with the property named", async () => {
    await expect(env.up("OpenApiSpec", { slug: "Bad Slug", source: url })).rejects.toThrow(CheckFailed);
  });
});

describe("a source read from a file", () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-file-"));
    file = path.join(dir, "openapi.yaml");
    fs.writeFileSync(file, doc("From a file"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const relative = () => path.relative(process.cwd(), file);

  it("is hashed at check: the inputs carry the path and the SHA-256, not the text", async () => {
    env.emu.log.reset();
    const r = await env.check("OpenApiSpec", { slug: "from-file", source: { file: relative() } });
    expect(r.failures).toBeUndefined();
    expect(r.inputs!.source).toEqual({ file: relative(), sha256: sha(doc("From a file")) });
    expect(JSON.stringify(r.inputs)).not.toContain("From a file");
    // A hash given in the program is recomputed, not trusted.
    expect((await env.check("OpenApiSpec", { slug: "from-file", source: { file: relative(), sha256: "0".repeat(64) } })).inputs!.source).toEqual(r.inputs!.source);
    expect(env.emu.log.count()).toBe(0);
  });

  it("fails check naming source.file when the file cannot be read, before any request", async () => {
    env.emu.log.reset();
    for (const [source, reason] of [
      [{ file: path.join(dir, "missing.yaml") }, /^source\.file cannot read "\/\S+\/missing\.yaml": no such file$/],
      [{ file: dir }, /^source\.file cannot read "\/\S+": a directory, not a file$/],
    ] as const) {
      const r = await env.check("OpenApiSpec", { slug: "from-file", source });
      expect(r.failures).toEqual([{ property: "source.file", reason: expect.stringMatching(reason) }]);
    }
    const empty = path.join(dir, "empty.yaml");
    fs.writeFileSync(empty, "\n");
    expect((await env.check("OpenApiSpec", { slug: "from-file", source: { file: empty } })).failures).toEqual([
      { property: "source.file", reason: `source.file ${JSON.stringify(empty)} is empty` },
    ]);
    expect(env.emu.log.count()).toBe(0);
  });

  it("is read when sent: the API gets the document, the outputs keep the path and the hash", async () => {
    const s = slug();
    const r = await created({ slug: s, source: { file: relative() } });
    expect(live(s).source).toEqual({ text: doc("From a file") });
    expect(r.outs.source).toEqual({ file: relative(), sha256: sha(doc("From a file")) });
    expect(JSON.stringify(r.outs)).not.toContain("From a file");
    expect(r.outs.processingState).toBe("complete");
  });

  it("diffs an edited file as a changed source, sends it with one PUT, and nothing when it is unchanged", async () => {
    const s = slug();
    const own = path.join(dir, `${s}.yaml`);
    fs.writeFileSync(own, doc("v1"));
    const first = await created({ slug: s, source: { file: own } });
    expect((await env.up("OpenApiSpec", { slug: s, source: { file: own } }, first)).step).toBe("same");
    fs.writeFileSync(own, doc("v2"));
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", { slug: s, source: { file: own } }, first);
    expect(r.step).toBe("update");
    expect(r.diff).toMatchObject({ changes: true, replaces: [] });
    expect(env.emu.log.count({ method: "PUT", route: SPEC })).toBe(1);
    expect(live(s).source).toEqual({ text: doc("v2") });
    expect(r.state.outs.source).toEqual({ file: own, sha256: sha(doc("v2")) });
  });

  it("changes nothing when the same document moves from text to a file, and sends a different one", async () => {
    const s = slug();
    const fromText = await created({ slug: s, source: { text: doc("From a file") } });
    env.emu.log.reset();
    const moved = await env.up("OpenApiSpec", { slug: s, source: { file: relative() } }, fromText);
    expect(moved.step).toBe("same");
    expect(env.emu.log.writes()).toBe(0);
    const other = path.join(dir, "other.yaml");
    fs.writeFileSync(other, doc("Other"));
    const changed = await env.up("OpenApiSpec", { slug: s, source: { file: other } }, fromText);
    expect(changed.step).toBe("update");
    expect(live(s).source).toEqual({ text: doc("Other") });
  });

  it("refreshes to inputs that diff equal to the program", async () => {
    const s = slug();
    const first = await created({ slug: s, source: { file: relative() } });
    const refreshed = await env.refresh("OpenApiSpec", first);
    expect(refreshed!.inputs.source).toEqual({ file: relative(), sha256: sha(doc("From a file")) });
    const d = await env.diff("OpenApiSpec", refreshed!.state, (await env.check("OpenApiSpec", { slug: s, source: { file: relative() } })).inputs!);
    expect(d.changes).toBe(false);
  });

  it("fails the step naming source.file when the file is gone by the time it is sent", async () => {
    const gone = path.join(dir, "gone.yaml");
    fs.writeFileSync(gone, doc("Gone"));
    const inputs = (await env.check("OpenApiSpec", { slug: slug(), source: { file: gone } })).inputs!;
    fs.rmSync(gone);
    env.emu.log.reset();
    const err = await env.call("OpenApiSpec", "create", inputs).catch((e) => e);
    expect(err.message).toMatch(/^OpenApiSpec: source\.file cannot read "\/\S+\/gone\.yaml": no such file$/);
    expect(env.emu.log.writes()).toBe(0);
  });
});

describe("diff", () => {
  let urlState: State;
  let textState: State;
  const urlSource = { url: "https://api.acme.test/diff.json" };
  const text = doc("Diff");
  beforeAll(async () => {
    urlState = await created({ slug: "diff-url", source: urlSource, visibility: "public" });
    textState = await created({ slug: "diff-text", source: { text } });
  });
  const inputs = async (news: Record<string, unknown>) => (await env.check("OpenApiSpec", news)).inputs!;

  it("reports no change for the same program, text compared by hash, without a request", async () => {
    env.emu.log.reset();
    expect((await env.diff("OpenApiSpec", urlState, await inputs({ slug: "diff-url", source: urlSource, visibility: "public" }))).changes).toBe(false);
    expect((await env.diff("OpenApiSpec", textState, await inputs({ slug: "diff-text", source: { text } }))).changes).toBe(false);
    expect(env.emu.log.count()).toBe(0);
  });

  it("updates in place for a changed text, url or visibility", async () => {
    const d = await env.diff("OpenApiSpec", textState, await inputs({ slug: "diff-text", source: { text: doc("Diff v2") } }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const d2 = await env.diff("OpenApiSpec", textState, await inputs({ slug: "diff-text", source: urlSource }));
    expect(d2).toMatchObject({ changes: true, replaces: [] });
    const d3 = await env.diff("OpenApiSpec", textState, await inputs({ slug: "diff-text", source: { text }, visibility: "public" }));
    expect(d3).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces for a new slug or organization, creating the new spec before deleting the old", async () => {
    const d = await env.diff("OpenApiSpec", urlState, await inputs({ slug: "diff-url-2", source: urlSource, visibility: "public" }));
    expect(d.replaces).toEqual(["slug"]);
    expect(d.deleteBeforeReplace).toBeFalsy();
    const d2 = await env.diff("OpenApiSpec", urlState, await inputs({ slug: "diff-url", source: urlSource, visibility: "public", organizationId: "org_b" }));
    expect(d2.replaces).toEqual(["organizationId"]);
    expect(d2.deleteBeforeReplace).toBeFalsy();
  });

  it("sees a change of state alone when visibility is removed: it is managed only while declared", async () => {
    const d = await env.diff("OpenApiSpec", urlState, await inputs({ slug: "diff-url", source: urlSource }));
    expect(d).toMatchObject({ changes: true, replaces: [] });
  });

  it("normalizes the known fields when source.url is unknown, so only source may change", async () => {
    const checked = await env.check("OpenApiSpec", { slug: "diff-url", source: { url: UNKNOWN }, visibility: "public" }, urlState.outs);
    expect(checked.failures).toBeUndefined();
    expect(checked.inputs).toEqual({ organizationId: env.org, slug: "diff-url", source: { url: UNKNOWN }, visibility: "public" });
    const d = await env.diff("OpenApiSpec", urlState, checked.inputs!);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const whole = await env.check("OpenApiSpec", { slug: "diff-url", source: UNKNOWN }, urlState.outs);
    expect(await env.diff("OpenApiSpec", urlState, whole.inputs!)).toMatchObject({ changes: true, replaces: [] });
  });

  it("treats unknown values as possible changes", async () => {
    const d = await env.diff("OpenApiSpec", textState, { ...(await inputs({ slug: "diff-text", source: { text } })), source: { text: UNKNOWN } });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const d2 = await env.diff("OpenApiSpec", textState, { ...(await inputs({ slug: "diff-text", source: { text } })), slug: UNKNOWN });
    expect(d2.replaces).toEqual(["slug"]);
  });
});

describe("lifecycle", () => {
  it("creates from a url with one POST and waits until processing completes", async () => {
    const s = slug();
    env.emu.log.reset();
    const r = await created({ slug: s, source: { url: `https://api.acme.test/${s}.json` } });
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "POST", route: SPECS })).toBe(1);
    // One GET before the POST (the slug is free: what recovery would compare with), then the emulator
    // answers "pending" to the first GET after a POST: the provider had to poll again.
    expect(env.emu.log.count({ method: "GET", route: SPEC })).toBe(3);
    expect(r.id).toBe(live(s).id);
    expect(r.outs).toMatchObject({
      slug: s,
      source: { url: `https://api.acme.test/${s}.json` },
      visibility: "private",
      processingState: "complete",
      lastVersion: live(s).lastVersionId,
      lastProcessedAt: expect.any(String),
      urls: { location: expect.stringContaining(s), app: expect.stringContaining(s) },
    });
    expect(r.outs).not.toHaveProperty("lastProcessErrorCode");
    // A private spec is not published.
    expect(r.outs.urls).not.toHaveProperty("published");
  });

  it("creates from text and keeps only the text's hash in the outputs", async () => {
    const s = slug();
    const text = doc("Payments") + "x: " + "y".repeat(500) + "\n";
    const r = await created({ slug: s, source: { text } });
    expect(live(s).source).toEqual({ text });
    expect(r.outs.source).toEqual({ textSha256: sha(text) });
    expect(JSON.stringify(r.outs)).not.toContain("y".repeat(100));
    expect(r.outs.processingState).toBe("complete");
  });

  it("creates a public spec with a POST then a PATCH", async () => {
    const s = slug();
    env.emu.log.reset();
    const r = await created({ slug: s, source: { text: doc("Public") }, visibility: "public" });
    expect(env.emu.log.count({ method: "POST", route: SPECS })).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: SPEC })).toBe(1);
    expect(live(s).visibility).toBe("public");
    expect(r.outs.visibility).toBe("public");
  });

  it("sends a changed text with one PUT and waits for the new version", async () => {
    const s = slug();
    const first = await created({ slug: s, source: { text: doc("v1") } });
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", { slug: s, source: { text: doc("v2") } }, first);
    expect(r.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "PUT", route: SPEC })).toBe(1);
    expect(live(s).source).toEqual({ text: doc("v2") });
    expect(r.state.outs).toMatchObject({ source: { textSha256: sha(doc("v2")) }, processingState: "complete" });
    expect(r.state.outs.lastVersion).not.toBe(first.outs.lastVersion);
  });

  it("changes visibility with one PATCH and no PUT, and leaves it as it is when removed", async () => {
    const s = slug();
    const source = { url: `https://api.acme.test/${s}.json` };
    const first = await created({ slug: s, source });
    env.emu.log.reset();
    const pub = await env.up("OpenApiSpec", { slug: s, source, visibility: "public" }, first);
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.log.count({ method: "PATCH", route: SPEC })).toBe(1);
    expect(live(s).visibility).toBe("public");
    expect(pub.state.outs.lastVersion).toBe(first.outs.lastVersion);
    env.emu.log.reset();
    const removed = await env.up("OpenApiSpec", { slug: s, source }, pub.state);
    // A change of state alone: no request.
    expect(removed.step).toBe("update");
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s).visibility).toBe("public");
    expect(removed.state.outs.visibility).toBe("public");
  });

  it("keeps a spec whose processing failed in state, retries it on the next up, and converges once fixed", async () => {
    const s = slug();
    const err = await env.up("OpenApiSpec", { slug: s, source: { text: "just some notes" } }).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", id: live(s).id });
    // GitBook's states have no "failed": processing is complete, and the error code says how it ended.
    expect(err.message).toMatch(/failed to process: PARSE_ERROR \(The document is neither an OpenAPI nor a Swagger specification\.\)/);
    expect(err.properties).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR", source: { textSha256: sha("just some notes") } });
    const state = { id: err.id, outs: err.properties };
    // The same source again: resent, since the last processing failed.
    env.emu.log.reset();
    const again = await env.up("OpenApiSpec", { slug: s, source: { text: "just some notes" } }, state).catch((e) => e);
    expect(again.name).toBe("PartialFailure");
    expect(env.emu.log.count({ method: "PUT", route: SPEC })).toBe(1);
    const fixed = await env.up("OpenApiSpec", { slug: s, source: { text: doc("Fixed") } }, { id: again.id, outs: again.properties });
    expect(fixed.step).toBe("update");
    expect(fixed.state.outs).toMatchObject({ processingState: "complete" });
    expect(fixed.state.outs).not.toHaveProperty("lastProcessErrorCode");
    expect((await env.up("OpenApiSpec", { slug: s, source: { text: doc("Fixed") } }, fixed.state)).step).toBe("same");
  });

  it("reports a url GitBook cannot fetch", async () => {
    const s = slug();
    const err = await env.up("OpenApiSpec", { slug: s, source: { url: "https://invalid.example/openapi.json" } }).catch((e) => e);
    expect(err).toMatchObject({ name: "PartialFailure", properties: { lastProcessErrorCode: "FETCH_ERROR" } });
    expect(err.message).toMatch(/failed to process: FETCH_ERROR/);
    expect(env.emu.store.openApiSpecs.has(err.id)).toBe(true);
  });

  it("counts a spec left pending with an error code as failed: refresh shows it, and the next up sends the source again", async () => {
    const s = slug();
    const program = { slug: s, source: { url: `https://api.acme.test/${s}.json` } };
    const first = await created(program);
    // GitBook gave up fetching for now and may try again later: not something to wait for.
    Object.assign(live(s), { processingState: "pending", lastProcessErrorCode: "FETCH_TIMEOUT" });
    const refreshed = await env.refresh("OpenApiSpec", first);
    expect(refreshed!.state.outs).toMatchObject({ processingState: "pending", lastProcessErrorCode: "FETCH_TIMEOUT" });
    expect((await env.diff("OpenApiSpec", refreshed!.state, (await env.check("OpenApiSpec", program)).inputs!)).changes).toBe(true);
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", program, refreshed!.state);
    expect(env.emu.log.count({ method: "PUT", route: SPEC })).toBe(1);
    expect(r.state.outs).toMatchObject({ processingState: "complete" });
    expect(r.state.outs).not.toHaveProperty("lastProcessErrorCode");
  });

  it("stops waiting after gitbook:openApiWaitSeconds and keeps the still-processing spec in state", async () => {
    const s = slug();
    env.emu.openApiProcessingReads = Infinity;
    await setWaitSeconds("0.2");
    try {
      const err = await env.up("OpenApiSpec", { slug: s, source: { text: doc("Slow") } }).catch((e) => e);
      expect(err).toMatchObject({ name: "PartialFailure", id: live(s).id, properties: { processingState: "pending" } });
      expect(err.message).toMatch(/still processing \(pending\) after 0\.2s/);
      // Processing finishes later: a refresh shows it, and the next up has nothing to do.
      env.emu.openApiProcessingReads = 1;
      const refreshed = await env.refresh("OpenApiSpec", { id: err.id, outs: err.properties });
      expect(refreshed!.state.outs.processingState).toBe("complete");
      expect((await env.up("OpenApiSpec", { slug: s, source: { text: doc("Slow") } }, refreshed!.state)).step).toBe("same");
    } finally {
      env.emu.openApiProcessingReads = 1;
      await setWaitSeconds("5");
    }
  });

  it("backs off between polls up to a cap", () => {
    const delays = [OPENAPI_POLL.firstMs];
    for (let i = 0; i < 6; i++) delays.push(nextPollDelay(delays.at(-1)!, OPENAPI_POLL.maxMs));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  });

  it("refreshes a text source to inputs that diff equal to the program", async () => {
    const s = slug();
    const text = doc("Stable");
    const first = await created({ slug: s, source: { text } });
    const refreshed = await env.refresh("OpenApiSpec", first);
    expect(refreshed!.inputs).toEqual({ organizationId: env.org, slug: s, source: { textSha256: sha(text) } });
    // The visibility the program leaves to GitBook is an output, never an input a plan could show as removed.
    expect(refreshed!.state.outs.visibility).toBe("private");
    const d = await env.diff("OpenApiSpec", refreshed!.state, (await env.check("OpenApiSpec", { slug: s, source: { text } })).inputs!);
    expect(d.changes).toBe(false);
  });

  it("shows drift of visibility and source after refresh and converges it", async () => {
    const s = slug();
    const source = { url: `https://api.acme.test/${s}.json` };
    const first = await created({ slug: s, source, visibility: "private" });
    Object.assign(live(s), { visibility: "public", source: { url: "https://elsewhere.test/spec.json" } });
    const refreshed = await env.refresh("OpenApiSpec", first);
    expect(refreshed!.inputs).toMatchObject({ visibility: "public", source: { url: "https://elsewhere.test/spec.json" } });
    await env.up("OpenApiSpec", { slug: s, source, visibility: "private" }, refreshed!.state);
    expect(live(s)).toMatchObject({ visibility: "private", source });
  });

  it("leaves a visibility the program does not declare as it is, and shows it as an output", async () => {
    const s = slug();
    const source = { url: `https://api.acme.test/${s}.json` };
    const first = await created({ slug: s, source });
    expect(first.outs.visibility).toBe("private");
    live(s).visibility = "public";
    const refreshed = await env.refresh("OpenApiSpec", first);
    expect(refreshed!.state.outs.visibility).toBe("public");
    env.emu.log.reset();
    expect((await env.up("OpenApiSpec", { slug: s, source }, refreshed!.state)).step).toBe("same");
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s).visibility).toBe("public");
  });

  it("sees a url source replaced by text outside Pulumi, and sends the url again", async () => {
    const s = slug();
    const source = { url: `https://api.acme.test/${s}.json` };
    const first = await created({ slug: s, source });
    live(s).source = { text: doc("By hand") };
    const refreshed = await env.refresh("OpenApiSpec", first);
    expect(refreshed!.inputs.source).toEqual({ textSha256: "unknown" });
    const r = await env.up("OpenApiSpec", { slug: s, source }, refreshed!.state);
    expect(r.step).toBe("update");
    expect(live(s).source).toEqual(source);
  });

  it("drops a spec deleted (or replaced by another) outside Pulumi at refresh, and deletes idempotently", async () => {
    const s = slug();
    const first = await created({ slug: s, source: { text: doc("Gone") } });
    await env.destroy("OpenApiSpec", first);
    expect(live(s)).toBeUndefined();
    expect(await env.refresh("OpenApiSpec", first)).toBeUndefined();
    await env.destroy("OpenApiSpec", first);
    // Another spec created at the same slug is not the one Pulumi managed.
    await created({ slug: s, source: { text: doc("Other") } });
    expect(await env.refresh("OpenApiSpec", first)).toBeUndefined();
  });

  it("replaces for a new slug: the new spec is created, then the old one deleted", async () => {
    const s = slug();
    const source = { text: doc("Moving") };
    const first = await created({ slug: s, source });
    const r = await env.up("OpenApiSpec", { slug: `${s}-renamed`, source }, first);
    expect(r.step).toBe("replace");
    expect(live(s)).toBeUndefined();
    expect(live(`${s}-renamed`).id).toBe(r.state.id);
  });

  it("adopts an existing spec by slug, sending its text source (which cannot be read back)", async () => {
    const s = slug();
    const existing = await created({ slug: s, source: { url: `https://api.acme.test/${s}.json` } });
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", { slug: s, source: { text: doc("Adopted") }, visibility: "public", adoptId: s });
    expect(r.state.id).toBe(s);
    expect(env.emu.log.count({ method: "POST" })).toBe(0);
    expect(env.emu.log.count({ method: "PUT", route: SPEC })).toBe(1);
    expect(live(s)).toMatchObject({ id: existing.id, visibility: "public", source: { text: doc("Adopted") }, processingState: "complete" });
    const refreshed = await env.refresh("OpenApiSpec", r.state);
    expect(refreshed!.state.outs.source).toEqual({ textSha256: sha(doc("Adopted")) });
  });

  it("adopts a public spec without making it private when the program does not declare visibility", async () => {
    const s = slug();
    const source = { url: `https://api.acme.test/${s}.json` };
    const existing = await created({ slug: s, source, visibility: "public" });
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", { slug: s, source, adoptId: existing.id });
    expect(env.emu.log.writes()).toBe(0);
    expect(live(s).visibility).toBe("public");
    expect(r.state.outs.visibility).toBe("public");
  });

  it("adopts by ID without resending an unchanged url", async () => {
    const s = slug();
    const source = { url: `https://api.acme.test/${s}.json` };
    const existing = await created({ slug: s, source });
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", { slug: s, source, adoptId: existing.id });
    expect(r.state.id).toBe(existing.id);
    expect(env.emu.log.writes()).toBe(0);
  });

  it("fails clearly when adoptId names nothing, or another spec than the slug's", async () => {
    const source = { url: "https://api.acme.test/x.json" };
    await expect(env.up("OpenApiSpec", { slug: slug(), source, adoptId: "oas_missing" })).rejects.toThrow(/adoptId "oas_missing" names no existing object/);
    const s = slug();
    await created({ slug: s, source });
    await expect(env.up("OpenApiSpec", { slug: s, source, adoptId: "oas_other" })).rejects.toThrow(/names no existing object/);
  });

  it("explains a slug already taken instead of overwriting the spec", async () => {
    const s = slug();
    await created({ slug: s, source: { text: doc("First") } });
    await expect(env.up("OpenApiSpec", { slug: s, source: { text: doc("Second") } })).rejects.toThrow(/already has a spec with slug .* adoptId/);
    expect(live(s).source).toEqual({ text: doc("First") });
  });

  it("recovers from a lost POST answer without creating the spec twice", async () => {
    const s = slug();
    env.emu.faults.add({ match: { method: "POST", route: SPECS }, dropAfterProcess: true, times: 1 });
    env.emu.log.reset();
    const r = await env.up("OpenApiSpec", { slug: s, source: { text: doc("Lost") } });
    expect([...env.emu.store.openApiSpecs.values()].filter((x) => x.slug === s).map((x) => x.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: SPECS })).toBe(1);
    expect(r.state.outs.processingState).toBe("complete");
  });
});
