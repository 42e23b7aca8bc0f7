/**
 * How `pulumi-gitbook import` finds a kind's objects, as the kind declares it (`import.read` on
 * defineResource): the kind it lives under, where its records go in the snapshot, and `find`, which
 * turns what the API answers into records keyed like the kind's inputs. The importer's reader
 * (importer/read.ts) walks the registry in dependency order and calls each kind's `find`; it knows no
 * kind by name.
 *
 * A record is a plain object (what the snapshot holds, see importer/snapshot.ts): the API object it
 * was made from is kept beside it (`keep`/`sourceOf`), never in it, so what reaches the generated
 * program is only what a kind put in its records.
 */
import type { z } from "zod";
import type { Query } from "../client";
import type { Resource } from "./define";
import { ruleOf } from "./fields";

/** A record of the snapshot: an object's settings keyed like its kind's inputs, and what the generator reads itself. */
export type ImportRecord = Record<string, unknown>;

/** What a kind's `find` reads with: GETs and listings made once per import whoever asks, and the records found so far. */
export interface Discovery {
  organizationId: string;
  /** The sites `--site` narrowed the import to; empty: every site. */
  siteIds: readonly string[];
  /** How many objects are read at once. */
  limit: number;
  /** A GET, made once per import (asking again answers the same promise). */
  get<T>(path: string, schema: z.ZodType<T>): Promise<T>;
  /** A whole listing, read once per import. */
  list<T>(path: string, item: z.ZodType<T>, query?: Query): Promise<T[]>;
  /** `make`'s answer, computed once per import for `key` (e.g. a site's navigation, which several kinds read). */
  memo<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** The snapshot as read so far: the kinds a kind reads (`under`, `after`) are in it. */
  snapshot: Record<string, unknown>;
  /** `record`, remembering the API object it was made from. */
  keep<R extends ImportRecord>(record: R, source: unknown): R;
  /** The API object a record was made from. */
  sourceOf<T = unknown>(record: ImportRecord): T;
  /** The record `record` was found under. */
  parentOf(record: ImportRecord): ImportRecord | undefined;
  /** Downloads a document from outside the API, when the caller allowed it (--fetch-spec-urls). */
  download?: (url: string) => Promise<string>;
}

/** How the importer finds a kind's objects. */
export interface ImportRead {
  /** The kind whose records these objects live under (a site's sections under Site); absent: the organization. */
  under?: string;
  /** Kinds of the organization whose records `find` reads: it runs after them. */
  after?: readonly string[];
  /** Read only when the whole organization is imported (not with --site). */
  organizationWide?: true;
  /** The key its records go under, in the parent's record or in the snapshot. */
  into: string;
  /** At most one per parent: `find` answers the record or undefined, not a list. */
  one?: true;
  /** The records under `parent` (undefined for a kind of the organization). */
  find(ctx: Discovery, parent: ImportRecord | undefined): Promise<ImportRecord[] | ImportRecord | undefined>;
  /** Runs on each of its records before the kinds under it: what the record takes from reads the kinds under it share. */
  complete?(ctx: Discovery, record: ImportRecord): Promise<void>;
  /** Lines for the terminal: once found, as each record's kinds are read, once all are. */
  progress?: {
    found?(records: readonly ImportRecord[]): string;
    each?(record: ImportRecord, done: number, of: number): string;
    done?(records: readonly ImportRecord[], ctx: Discovery): string;
  };
}

/**
 * An object's settings as its kind's resource reads them (its `live`): what GitBook does not show
 * stays absent, and so do the fields the importer never writes (FieldRule.import).
 */
export function settingsOf(def: Resource, obj: unknown): ImportRecord {
  const shape = def.schema.shape as Record<string, z.ZodType>;
  const live = defined((def.live as (o: unknown, props: Record<string, unknown>) => Record<string, unknown>)(obj, {}));
  return Object.fromEntries(Object.entries(live).filter(([k]) => shape[k] === undefined || ruleOf(shape[k]).import !== false));
}

/** The entries whose value is not undefined, so absent settings stay absent. */
export function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}

/** Maps with at most `limit` calls in flight, keeping the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** `n` and the noun, plural unless one. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * The records of `kind` in a snapshot (or under one record of it, `from`), each with the records it is
 * under (nearest first), by the kinds' `import.read`.
 */
export function recordsOf(
  kinds: readonly Resource[],
  snapshot: Record<string, unknown>,
  kind: string,
  from?: { kind: string; record: ImportRecord },
): { record: ImportRecord; parents: ImportRecord[] }[] {
  if (from?.kind === kind) return [{ record: from.record, parents: [] }];
  const read = kinds.find((k) => k.kind === kind)?.import?.read;
  if (!read) return [];
  const inside = (holder: Record<string, unknown>): ImportRecord[] => {
    const v = holder[read.into];
    return Array.isArray(v) ? (v as ImportRecord[]) : v && typeof v === "object" ? [v as ImportRecord] : [];
  };
  if (read.under === undefined) return from ? [] : inside(snapshot).map((record) => ({ record, parents: [] }));
  return recordsOf(kinds, snapshot, read.under, from).flatMap(({ record: parent, parents }) => inside(parent).map((record) => ({ record, parents: [parent, ...parents] })));
}
