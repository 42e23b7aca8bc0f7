/**
 * Reads an organization into an OrgSnapshot by walking the registry (resources/index.ts): each kind
 * says in its declaration how its objects are found (`import.read`, framework/discover.ts), under which
 * kind they live and where their records go, and this walk calls them in dependency order, knowing no
 * kind by name. Adding a kind to the import is its module's business.
 *
 * The order: the kinds of the organization (a kind declared `after` others runs once those are read),
 * each record's kinds under it before the next record (several at once), a record's kinds side by side;
 * kinds read only for a whole organization (teams, SSO, specs) last, and not at all with --site.
 *
 * Each GET and listing is made once per import whichever kind asks (a site's structure holds its
 * sections, groups, links and site spaces: one request), every list at the largest page size (the
 * client's `listAll` follows the pages). It talks to the configured API only, but for the documents
 * a kind may download when the caller allows it (`fetchSpecUrls`, the command's --fetch-spec-urls).
 */
import type { z } from "zod";
import type { GitbookClient, Query } from "../client";
import type { Resource } from "../framework/define";
import { mapLimit, type Discovery, type ImportRead, type ImportRecord } from "../framework/discover";
import { resources } from "../resources";
import type { OrgSnapshot } from "./snapshot";

export interface ReadOptions {
  organizationId: string;
  /** Only these sites (and then nothing organization-wide); every site when empty. */
  siteIds?: readonly string[];
  /** One line per finished piece of work, for the terminal. */
  onProgress?: (line: string) => void;
  /** How many sites (or teams) are read at once. */
  concurrency?: number;
  /**
   * Whether a document may be downloaded from outside the API: the processed version of a spec
   * uploaded as text, when the API has no text for it. Off: nothing but the API is ever reached.
   */
  fetchSpecUrls?: boolean;
  /** Downloads a processed OpenAPI document; injected by tests. */
  download?: (url: string) => Promise<string>;
}

const DEFAULT_CONCURRENCY = 4;
const DOWNLOAD_TIMEOUT_MS = 15_000;

type Reading = Resource & { import: { read: ImportRead } };

export async function readOrganization(client: GitbookClient, opts: ReadOptions): Promise<OrgSnapshot> {
  const progress = opts.onProgress ?? (() => {});
  const limit = opts.concurrency ?? DEFAULT_CONCURRENCY;
  // Each site once, however often it was asked for: twice, it would be declared twice, two resources adopting one object.
  const siteIds = [...new Set(opts.siteIds ?? [])];
  const narrowed = siteIds.length > 0;
  const snapshot: Record<string, unknown> = { organizationId: opts.organizationId, scope: narrowed ? "sites" : "organization" };

  const answers = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, make: () => Promise<T>): Promise<T> => {
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = make()));
    return answer as Promise<T>;
  };
  const sources = new WeakMap<object, unknown>();
  const parents = new WeakMap<object, ImportRecord>();
  const ctx: Discovery = {
    organizationId: opts.organizationId,
    siteIds,
    limit,
    get: <T>(path: string, schema: z.ZodType<T>) => once(`GET ${path}`, () => client.get(path, { schema })),
    list: <T>(path: string, item: z.ZodType<T>, query?: Query) => once(`LIST ${path} ${JSON.stringify(query ?? {})}`, () => client.listAll(path, item, query)),
    memo: once,
    snapshot,
    keep: (record, source) => (sources.set(record, source), record),
    sourceOf: <T>(record: ImportRecord) => sources.get(record) as T,
    parentOf: (record) => parents.get(record),
    ...(opts.fetchSpecUrls === true ? { download: opts.download ?? downloadDocument } : {}),
  };

  const reading = resources.filter((r): r is Reading => r.import?.read !== undefined);
  const under = (kind: string) => reading.filter((r) => r.import.read.under === kind);

  /** The kinds under `kind` for one of its records, side by side, each record's own kinds after it. */
  const walkUnder = async (kind: string, record: ImportRecord): Promise<void> => {
    await Promise.all(
      under(kind).map(async (child) => {
        const read = child.import.read;
        const found = await read.find(ctx, record);
        if (!read.one) {
          const list = found as ImportRecord[];
          record[read.into] = list;
          for (const r of list) parents.set(r, record);
          await mapLimit(list, limit, async (r) => {
            await read.complete?.(ctx, r);
            await walkUnder(child.kind, r);
          });
        } else if (found !== undefined) {
          record[read.into] = found;
          if (!Array.isArray(found)) {
            parents.set(found, record);
            await walkUnder(child.kind, found);
          }
        }
      }),
    );
  };

  for (const top of topLevelOrder(reading)) {
    const read = top.import.read;
    snapshot[read.into] = read.one ? undefined : [];
    if (narrowed && read.organizationWide) continue;
    const found = await read.find(ctx, undefined);
    const records = read.one ? (found === undefined ? [] : [found as ImportRecord]) : (found as ImportRecord[]);
    snapshot[read.into] = found;
    if (read.progress?.found) progress(read.progress.found(records));
    let done = 0;
    await mapLimit(records, limit, async (r) => {
      await read.complete?.(ctx, r);
      await walkUnder(top.kind, r);
      done++;
      if (read.progress?.each) progress(read.progress.each(r, done, records.length));
    });
    if (read.progress?.done) progress(read.progress.done(records, ctx));
  }
  return snapshot as unknown as OrgSnapshot;
}

/**
 * The kinds of the organization in the order they are read: the registry's, each after the kinds it
 * reads (`after`), and those read only for a whole organization last.
 */
function topLevelOrder(reading: readonly Reading[]): Reading[] {
  const top = reading.filter((r) => r.import.read.under === undefined);
  const topOf = (kind: string): string => {
    const r = reading.find((x) => x.kind === kind);
    if (!r) throw new Error(`importer: a kind reads after ${kind}, which the importer does not read`);
    return r.import.read.under === undefined ? kind : topOf(r.import.read.under);
  };
  const out: Reading[] = [];
  const visit = (r: Reading, path: string[]) => {
    if (out.includes(r)) return;
    if (path.includes(r.kind)) throw new Error(`importer: kinds read after each other: ${[...path, r.kind].join(" -> ")}`);
    for (const k of r.import.read.after ?? []) visit(top.find((t) => t.kind === topOf(k))!, [...path, r.kind]);
    out.push(r);
  };
  for (const r of top.filter((t) => !t.import.read.organizationWide)) visit(r, []);
  for (const r of top.filter((t) => t.import.read.organizationWide)) visit(r, []);
  return out;
}

/** GETs a processed document, without the token (which goes to the API only). */
export async function downloadDocument(url: string): Promise<string> {
  const u = new URL(url);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(`not an http(s) URL`);
  const res = await fetch(u, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}
