/**
 * Values of a field derived from its schema alone, for the class tests that give every field a value
 * (test/unit/appEdits.test.ts, test/unit/undeclared.test.ts): a field whose schema yields one needs no
 * line in their tables. Only what a schema says is tried (an enum's members, both booleans, small
 * numbers, a text, a record keyed by an enum); a value that must mean something in GitBook (an ID, a
 * path, a condition) fails the field's check or is given by the tests' tables.
 */
import equal from "fast-deep-equal";
import { z } from "zod";
import { ruleOf } from "../../provider/framework/fields";
import type { Resource } from "../../provider/framework/define";

const TEXTS = ["Set in the app", "set-in-the-app"];

function* candidates(schema: z.ZodType): Generator<unknown> {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return yield* candidates(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodEnum) yield* schema.options;
  else if (schema instanceof z.ZodBoolean) yield* [true, false];
  else if (schema instanceof z.ZodNumber) yield* [1, 2, 0];
  else if (schema instanceof z.ZodString) yield* TEXTS;
  else if (schema instanceof z.ZodRecord && schema.keyType instanceof z.ZodEnum) {
    const key = schema.keyType.options[0]!;
    for (const v of candidates(schema.valueType as z.ZodType)) yield { [key]: v };
  }
}

/** The first value the field's schema derives that passes its check and is none of `avoid`, or undefined. */
export function derivedValue(schema: z.ZodType, avoid: readonly unknown[] = []): unknown {
  for (const v of candidates(schema)) if (schema.safeParse(v).success && !avoid.some((a) => equal(a, v))) return v;
  return undefined;
}

/** The fields of a kind GitBook changes in place, which the class tests give values: compared by the diff, neither replace-only, local nor filled by the program process. */
export function inPlaceFields(def: Resource): string[] {
  const shape = def.schema.shape as Record<string, z.ZodType>;
  return def.diff.fields.filter((f) => shape[f] !== undefined && (ruleOf(shape[f]!).change ?? "update") !== "replace" && !ruleOf(shape[f]!).local && !ruleOf(shape[f]!).fromProgram);
}
