// Collections: the folders of an organization's content tree, holding spaces and other collections.
import { created, deleted, fail, invalid, LIMITS, list, notFound, nullable, obj, ok, oneOf, queryBool, str, validate, type Router } from "../http";
import { DEFAULT_LEVELS, type CollectionRecord, type Store } from "../store";
import { apiUrl, APP, child, compact, getOrg, ORG, type Ctx, type Env } from "./resource";

const COLLECTION = "/v1/collections/:collection";

export function collectionView(e: Env, col: CollectionRecord) {
  return compact({
    object: "collection",
    id: col.id,
    title: col.title,
    description: col.description || undefined,
    organization: col.orgId,
    parent: col.parentId,
    defaultLevel: col.defaultLevel,
    urls: { location: apiUrl(e, `/collections/${col.id}`), app: `${APP}/o/${col.orgId}/c/${col.id}/` },
    permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
  });
}

function getCollection(c: Ctx): CollectionRecord {
  return c.store.collections.get(c.params.collection!) ?? notFound("collection", c.params.collection!);
}

/** A collection referenced from a body (`parent`): must exist in the organization, else 400 naming the field. */
export function collectionRef(c: Ctx, orgId: string, id: string, field: string): CollectionRecord {
  return child(c.store.collections, id, (col) => col.orgId === orgId) ?? invalid(field, `no collection "${id}" in this organization`);
}

/**
 * Where a move body sends an item of the content tree now under `current`: the new parent's ID, or
 * undefined for the top level. A move that changes nothing is a 409, as the spec documents for both
 * move operations; `position` only orders siblings, which the emulator does not keep.
 */
export function moveTarget(c: Ctx, orgId: string, current: string | undefined, refuse: (parent: CollectionRecord) => string | undefined = () => undefined): string | undefined {
  const b = validate(c.body, { parent: nullable(str()), position: obj() });
  if (b.parent === undefined && b.position === undefined) invalid("body", "must set parent or position");
  if (b.parent === undefined) return current;
  const target = b.parent === null ? undefined : collectionRef(c, orgId, b.parent, "parent");
  const problem = target && refuse(target);
  if (problem) invalid("parent", problem);
  if (target?.id === current && b.position === undefined) fail(409, "Operation would not result in any update");
  return target?.id;
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${ORG}/collections`, (c) => {
    const org = getOrg(c);
    const nested = queryBool(c.query, "nested") ?? true;
    const items = [...c.store.collections.values()].filter((col) => col.orgId === org.id && (nested || col.parentId === undefined));
    return list(c.query, items, (col) => collectionView(c, col));
  });

  // POST takes only a title and a parent: a description and a default level need a PATCH.
  r.add("POST", `${ORG}/collections`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { title: str(LIMITS.collectionTitle), parent: str() });
    const parent = b.parent === undefined ? undefined : collectionRef(c, org.id, b.parent, "parent");
    const col: CollectionRecord = { ...c.store.newId("col"), orgId: org.id, title: b.title ?? "Untitled", description: "", defaultLevel: "inherit" };
    if (parent) col.parentId = parent.id;
    c.store.collections.set(col.id, col);
    return created(collectionView(c, col));
  });

  r.add("GET", COLLECTION, (c) => ok(collectionView(c, getCollection(c))));

  r.add("PATCH", COLLECTION, (c) => {
    const col = getCollection(c);
    const b = validate(c.body, {
      title: str(LIMITS.collectionTitle),
      description: str(LIMITS.collectionDescription),
      defaultLevel: nullable(oneOf(DEFAULT_LEVELS)),
    });
    if (b.title !== undefined) col.title = b.title;
    if (b.description !== undefined) col.description = b.description;
    if (b.defaultLevel !== undefined) col.defaultLevel = b.defaultLevel;
    return ok(collectionView(c, col));
  });

  r.add("POST", `${COLLECTION}/move`, (c) => {
    const col = getCollection(c);
    const below = new Set(c.store.collectionSubtree(col.id).map((x) => x.id));
    const target = moveTarget(c, col.orgId, col.parentId, (p) => (below.has(p.id) ? "cannot move a collection into itself or a collection inside it" : undefined));
    if (target === undefined) delete col.parentId;
    else col.parentId = target;
    return ok(collectionView(c, col));
  });

  // Deleting a collection deletes what it holds (Store.deleteCollection).
  r.add("DELETE", COLLECTION, (c) => deleted(c.store.deleteCollection(c.params.collection!)));
}
