/**
 * Checks that span resources run in the program's process, as the resource classes are constructed
 * (see ResourceSpec.inProgram): a check refuses a declaration by throwing as the offending resource is
 * constructed, which fails the program.
 *
 * Failing the program is not enough on its own: the resources constructed before the offending one are
 * already on their way to the engine, and under `pulumi up --skip-preview` the engine creates them
 * while the program fails (seen on 3.248: the site and a group were created after the program's error).
 * So every resource's registration waits for the end of the synchronous run it was constructed in (one
 * macrotask, through a promise in its `dependsOn`), and a run in which a check refused something
 * registers nothing: its registrations wait forever, which holds no event-loop handle, so the program
 * ends with its one error and no request is sent. A program that awaits between constructions is gated
 * per synchronous run: what it registered before the await has gone already.
 */
import * as pulumi from "@pulumi/pulumi";

interface Run {
  refused: boolean;
  released: Promise<void>;
}

let current: Run | undefined;

function run(): Run {
  if (current) return current;
  const r: Run = { refused: false, released: Promise.resolve() };
  r.released = new Promise<void>((resolve) =>
    setImmediate(() => {
      if (current === r) current = undefined;
      if (!r.refused) resolve();
    }),
  );
  return (current = r);
}

/** The `dependsOn` to register a resource with: the program's own, once the current run has passed its checks. */
export function gated(dependsOn: pulumi.CustomResourceOptions["dependsOn"]): pulumi.CustomResourceOptions["dependsOn"] {
  const { released } = run();
  return released.then(() => dependsOn ?? []) as pulumi.CustomResourceOptions["dependsOn"];
}

/**
 * The SDK formats the stack of an error that ends the program even when it shows only the message
 * (for its tracing span), through source-map-support, which took the CLI 30 to 60 seconds before the
 * run ended (seen on 3.248). A RunError is shown as its message alone, so it carries no stack: a
 * program refused at preview fails in seconds.
 */
export function withoutStack<E extends Error>(e: E): E {
  Object.defineProperty(e, "stack", { value: `${e.name}: ${e.message}`, writable: true, configurable: true });
  return e;
}

/** The error that refuses a program: its message, naming the resources and the fix, and no stack. */
export function programError(message: string): pulumi.RunError {
  return withoutStack(new pulumi.RunError(message));
}

/** Runs a cross-resource check; when it throws, nothing of the current run is registered. */
export function checked<T>(check: () => T): T {
  const r = run();
  try {
    return check();
  } catch (e) {
    r.refused = true;
    throw e instanceof pulumi.RunError ? withoutStack(e) : e;
  }
}


/**
 * What a target input is known by in the program's process: a literal ID, or the Output itself (the
 * same `site.id` of one resource is one object, known or not); undefined for anything else. Two
 * Outputs are never compared by value: at preview an object not created yet has no ID, and two
 * unknown IDs are no evidence of one object. Values computed apart that turn out equal are left to
 * the provider (claimOnly, at create).
 */
export function programKey(v: unknown): unknown {
  return typeof v === "string" || pulumi.Output.isInstance(v) ? v : undefined;
}

/** Per site (programKey: a literal ID or one Output), the GitSyncInstallation and the structure resources the program declares of it. */
const structureOf = new Map<unknown, { installation?: string; structure?: string }>();

function refuseBoth(installation: string, structure: string): never {
  throw programError(
    `${structure}: siteId: GitSyncInstallation "${installation}" syncs this site's structure from its repository's gitbook-docs.yaml, so ${structure} would undo each sync and be undone by the next. ` +
      `Either declare this part of the structure in gitbook-docs.yaml and take ${structure} out of the program, or remove GitSyncInstallation "${installation}" to manage the structure here. Nothing was sent.`,
  );
}

/** A structure resource of the site `siteId` (ResourceSpec.structure): refused beside a GitSyncInstallation of the same site. */
export function declaresStructure(kind: string, name: string, siteId: unknown): void {
  const key = programKey(siteId);
  if (key === undefined) return;
  const site = structureOf.get(key) ?? {};
  if (site.installation !== undefined) refuseBoth(site.installation, `${kind} "${name}"`);
  site.structure ??= `${kind} "${name}"`;
  structureOf.set(key, site);
}

/** A GitSyncInstallation of the site `siteId`: refused beside a structure resource of the same site. */
export function declaresSiteSync(name: string, siteId: unknown): void {
  const key = programKey(siteId);
  if (key === undefined) return;
  const site = structureOf.get(key) ?? {};
  if (site.structure !== undefined) refuseBoth(name, site.structure);
  site.installation ??= name;
  structureOf.set(key, site);
}
