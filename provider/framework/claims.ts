/**
 * Which GitBook objects the resources of this deployment hold, as far as this provider process knows.
 *
 * The engine runs every resource of a deployment through one provider host process, so this process
 * sees each object a resource creates, adopts, reads, diffs, updates or deletes. Recovery from a lost
 * create answer (createOnce) must never take an object another resource holds: it skips every object
 * held here, and waits for the creates of interchangeable objects still in flight in this process, so
 * that an object another resource is about to receive is never mistaken for the lost one.
 *
 * What this process cannot know is an object held in state by a resource the run has not reached yet.
 * Nothing here is proof that an object is the one a lost create made: that is the listing createOnce
 * takes before the request (an object already there is never taken), which also keeps out every
 * object made before the run. Claims only remove candidates.
 *
 * Claims are per client (one per API URL and token, dropped when tests reset clients), like
 * siteContents, and live as long as the provider host process: one deployment.
 */
import type { GitbookClient } from "../client";
import type { Resource } from "./define";
import type { Props } from "./resource";

export class Claims {
  /**
   * `kind id` -> the holder's last known outputs, whether the program declares it in this run (seen
   * by diff, create or update) or it was only read (refresh), and the program's names of the resources
   * that declared it, each with the parts of the object it manages (see declaredByOther).
   */
  private readonly held = new Map<string, { props: Props; declared: boolean; by: Map<string, readonly string[]> }>();
  /** `kind key` -> creates of that key whose request has not settled yet. */
  private readonly sending = new Map<string, Set<Promise<unknown>>>();

  /** `by`: the program's name of the resource that declares it, when known, and the parts of the object it manages. */
  hold(kind: string, id: string, props: Props = {}, declared = false, by?: { name: string; parts: readonly string[] }): void {
    const k = `${kind}\u0000${id}`;
    const was = this.held.get(k);
    const names = was?.by ?? new Map<string, readonly string[]>();
    if (declared && by) names.set(by.name, by.parts);
    this.held.set(k, { props, declared: declared || (was?.declared ?? false), by: names });
  }

  release(kind: string, id: string): void {
    this.held.delete(`${kind}\u0000${id}`);
  }

  holds(kind: string, id: string): boolean {
    return this.held.has(`${kind}\u0000${id}`);
  }

  /** Whether a resource the program declares in this run (not one only refreshed) holds the object. */
  declares(kind: string, id: string): boolean {
    return this.held.get(`${kind}\u0000${id}`)?.declared === true;
  }

  /**
   * The names of the resources other than `name` that the program declares in this run over the
   * object (they adopted it, or hold it in state), with the parts of it each manages. Only names the
   * program gave count: none when `name` is not known, since another could then be the same resource.
   */
  declaredByOthers(kind: string, id: string, name: unknown): Map<string, readonly string[]> {
    const others = new Map<string, readonly string[]>();
    if (typeof name !== "string" || !name) return others;
    for (const [other, parts] of this.held.get(`${kind}\u0000${id}`)?.by ?? []) if (other !== name) others.set(other, parts);
    return others;
  }

  /** The objects of this kind that the resource the program names `name` declares in this run. */
  declaredBy(kind: string, name: string): string[] {
    const prefix = `${kind}\u0000`;
    return [...this.held].filter(([k, h]) => k.startsWith(prefix) && h.declared && h.by.has(name)).map(([k]) => k.slice(prefix.length));
  }

  /**
   * Runs a creating request, visible to `settled` until it has an outcome; the object it answers with
   * is held before anyone waiting in `settled` resumes.
   */
  async sendAs<T extends { id: string }>(kind: string, key: string, send: () => Promise<T>): Promise<T> {
    const k = `${kind}\u0000${key}`;
    const p = send().then((created) => {
      this.hold(kind, created.id);
      return created;
    });
    let set = this.sending.get(k);
    if (!set) this.sending.set(k, (set = new Set()));
    set.add(p);
    try {
      return await p;
    } finally {
      set.delete(p);
      if (set.size === 0) this.sending.delete(k);
    }
  }

  /** Resolves once every create of this key in flight now has an outcome (and, if it succeeded, a holder). */
  async settled(kind: string, key: string): Promise<void> {
    await Promise.allSettled([...(this.sending.get(`${kind}\u0000${key}`) ?? [])]);
  }
}

const registries = new WeakMap<GitbookClient, Claims>();

export function claimsOf(client: GitbookClient): Claims {
  let c = registries.get(client);
  if (!c) registries.set(client, (c = new Claims()));
  return c;
}

/** The parts of its object a resource with these inputs or outputs manages (ResourceSpec.parts): one whole object, `[""]`, for most kinds. */
export function partsOf(def: Pick<Resource, "parts">, props: Props): readonly string[] {
  return def.parts ? def.parts(props) : [""];
}
