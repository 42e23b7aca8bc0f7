/**
 * A program's checks under Pulumi's mocks (no engine, no provider): the names registered, in order,
 * and the waits a test of a refused run needs (see provider/framework/program.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll } from "vitest";

/**
 * Sets the mocks for the file (`preview`: every new ID unknown, as the engine answers before a create)
 * and returns the names registered, in order.
 */
export function mockedRegistrations(project: string, preview: boolean): string[] {
  const registered: string[] = [];
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push(args.name);
          return { id: preview ? undefined : `${args.name}-id`, state: args.inputs };
        },
        call: () => ({}),
      },
      project,
      "test",
      preview,
    );
  });
  return registered;
}

/** Resolves once every one of `resources` is registered. */
export const registeredAll = (resources: pulumi.Resource[]) => new Promise((resolve) => pulumi.all(resources.map((r) => r.urn)).apply(resolve));

/** The next synchronous run of the program (a new macrotask): what a test declares then is out of the run before. */
export const nextRun = () => new Promise((resolve) => setImmediate(resolve));
