// The emulator's contract with GitBook: every request it receives and every response it sends,
// checked against the OpenAPI document GitBook publishes in the npm package @gitbook/api
// (spec/openapi.json, OpenAPI 3.1.0, 1.7 MB, 377 operations; its paths omit the /v1 that the
// client and the emulator use). Nothing here knows the emulator: it takes method, path, query,
// body and status, and answers with the problems found, so the emulator can record them.
//
// Library: ajv 8 (its Ajv2020 class) with ajv-formats, and an operation lookup of our own.
// Compared on the 1.7 MB document, Node 20, CommonJS:
//   - openapi-backend 5.21: matches operations itself and validates with ajv, but rejects this
//     document at init (its OpenAPI 3.x meta-validation reports 2,326 errors, e.g. `description`
//     beside `$ref`, which 3.1 allows) unless started in `quick` mode, which its docs say "might
//     break things"; it compiles with ajv's draft-07 class, not the 2020-12 dialect that 3.1
//     schemas are written in; 53 packages in all (lodash, qs, cookie, a ref parser, a mock generator).
//   - @hyperjump/json-schema 1.18: implements the OpenAPI 3.1 dialect itself, but is ESM-only
//     (loads from CommonJS only through Node's require(esm), 20.19+), is async, has no operation
//     matching, and its errors name keyword URIs without saying what was expected.
//   - openapi-request-validator / openapi-response-validator 12.1: OpenAPI 3.0 only, last
//     published 2024-12. express-openapi-validator 5.6: an Express middleware (multer, path-to-regexp,
//     lodash...) whose core is not usable apart from Express.
//   - ajv 8.20 (published 2026-04; the validator openapi-backend and express-openapi-validator wrap)
//     ships Ajv2020, the JSON Schema 2020-12 dialect that OpenAPI 3.1 schema objects are written in;
//     4 small dependencies, CommonJS, compiled validators, and errors that carry the JSON pointer of
//     the offending value. It lacks the OpenAPI layer, which for this document is small: a path is
//     matched to its operation below (concrete segments before templated ones, as OpenAPI says),
//     and each location's parameters are validated as one object schema.
//
// Cost, measured on Node 20: Contract.load() 150 ms (parse, index, two ajv instances); the first
// check of an operation compiles its validators, 5-50 ms (getSiteById's Site: 48 ms); then about
// 1-3 µs a check (66 µs for a list of 50 sites). Compiling all 377 operations would take 2.8 s,
// hence lazily, per operation and status, cached for the life of the process.
//
// The OpenAPI 3.1 dialect adds four keywords to 2020-12: `discriminator`, `xml`, `externalDocs` and
// `example`. All four are annotations (a discriminator is a hint: `oneOf` still decides), so they are
// declared as such, and so are the document's `x-` extensions; ajv's strict mode then still fails on
// any other keyword it does not know, instead of silently not checking it.
//
// Not checked: response headers; security (the emulator checks its token itself); bodies that are
// not JSON; and properties a schema does not declare, since GitBook's schemas leave objects open
// (additionalProperties is rarely false), so a field the emulator invents or the client sends that
// GitBook does not document passes.

import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

export interface ContractViolation {
  direction: "request" | "response";
  method: string;
  /** As received, with /v1. */
  path: string;
  /** Absent when no operation of the spec matches the method and path. */
  operationId?: string;
  /** Responses only. */
  status?: number;
  /** One readable line each: `operationId where /json/pointer: what was expected`. */
  problems: string[];
}

export interface ContractRequest {
  method: string;
  /** The path as received, with its /v1 prefix and without the query string. */
  path: string;
  query: Record<string, string | string[]> | URLSearchParams;
  /** Header names in any case; only header parameters the operation declares are checked. */
  headers?: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; undefined when the request had none. */
  body?: unknown;
}

export interface ContractResponse {
  status: number;
  /** The parsed JSON body; undefined when the response had none. */
  body: unknown;
  contentType?: string;
}

/** What the API is rooted at; the spec's server URL is `{host}/v1` and its paths start after it. */
const PREFIX = "/v1";
/** The document's id inside ajv: refs into it are `${SPEC_ID}#/json/pointer`. Never fetched. */
const SPEC_ID = "https://gitbook-api.invalid/openapi.json";
const METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"];
/** GitBook's error body, `{error: {code, message}}`, which every operation may answer. */
const ERROR_SCHEMA = ["components", "schemas", "Error"];
const OAS_ANNOTATIONS = ["discriminator", "xml", "externalDocs", "example"];
/** Keys of the OpenAPI document's root, registered so ajv accepts the document as a schema resource. */
const DOCUMENT_KEYS = ["openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags"];

type Json = Record<string, unknown>;
type Segment = { literal: string } | { param: string };
type ParamLocation = "path" | "query" | "header";

interface Operation {
  id: string;
  method: string;
  /** The spec's path, e.g. /orgs/{organizationId}/sites. */
  template: string;
  segments: Segment[];
  /** JSON pointer tokens of the operation object in the document. */
  at: string[];
  object: Json;
}

interface RequestValidators {
  params: Record<ParamLocation, ValidateFunction | undefined>;
  /** Undefined when the operation takes no JSON body. */
  body?: ValidateFunction;
  bodyRequired: boolean;
  bodyTypes: string[];
}

/** How one status of one operation is answered: a JSON schema, no body, or a body we do not check. */
type ResponseRule =
  | { kind: "json"; validate: ValidateFunction; label: string }
  | { kind: "empty"; label: string }
  | { kind: "other"; types: string[]; label: string }
  | { kind: "undeclared"; declared: string[] };

export class Contract {
  private static cached: Contract | undefined;

  /** GitBook's published document, loaded and indexed once per process; validators compile on first use. */
  static load(): Contract {
    if (Contract.cached) return Contract.cached;
    const file = require.resolve("@gitbook/api/spec/openapi.json");
    // The package exports no ./package.json; it sits one level above spec/.
    const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(file), "..", "package.json"), "utf8")) as { version: string };
    return (Contract.cached = new Contract(JSON.parse(fs.readFileSync(file, "utf8")) as Json, pkg.version));
  }

  private readonly byShape = new Map<string, Operation[]>();
  private readonly pathsByShape = new Map<string, Operation[]>();
  /** Bodies and responses: no coercion, a body must already have its JSON types. */
  private readonly ajv: Ajv2020;
  /** Parameters arrive as strings: "10" is a number and a lone value is a one-item array. */
  private readonly paramAjv: Ajv2020;
  private readonly requestValidators = new Map<Operation, RequestValidators>();
  private readonly responseRules = new Map<string, ResponseRule>();

  private constructor(
    private readonly doc: Json,
    /** The @gitbook/api version whose document is enforced. */
    readonly specVersion: string,
  ) {
    const add = (map: Map<string, Operation[]>, key: string, op: Operation) => map.set(key, [...(map.get(key) ?? []), op]);
    for (const op of operationsOf(doc)) {
      add(this.byShape, shapeKey(op.method, op.segments.length), op);
      add(this.pathsByShape, shapeKey("*", op.segments.length), op);
    }
    const keywords = [...OAS_ANNOTATIONS, ...DOCUMENT_KEYS, ...extensionKeywords(doc)];
    this.ajv = newAjv(doc, keywords, {});
    this.paramAjv = newAjv(doc, keywords, { coerceTypes: "array" });
  }

  /** Checks one received request; undefined when it is a valid call of an operation of the spec. */
  checkRequest(req: ContractRequest): ContractViolation | undefined {
    const method = req.method.toUpperCase();
    const base = { direction: "request" as const, method, path: req.path };
    const found = this.match(method, req.path);
    if ("problem" in found) return { ...base, problems: [found.problem] };
    const { op, pathParams } = found;
    const v = this.requestValidatorsOf(op);
    const problems: string[] = [];
    const check = (where: string, validate: ValidateFunction | undefined, data: unknown, unknownName?: string) => {
      if (validate && !validate(data)) problems.push(...describe(validate.errors ?? [], `${op.id} ${where}`, unknownName));
    };
    check("path", v.params.path, pathParams);
    check("query", v.params.query, queryObject(req.query), "is not a query parameter of this operation");
    if (req.headers) check("header", v.params.header, lowerKeys(req.headers));
    if (req.body === undefined) {
      if (v.bodyRequired) problems.push(`${op.id} request body: is required (${v.bodyTypes.join(", ")})`);
    } else if (v.bodyTypes.length === 0) {
      problems.push(`${op.id} request body: the operation takes none`);
    } else {
      const type = headerValue(req.headers, "content-type");
      if (type !== undefined && !v.bodyTypes.includes(mediaType(type))) {
        problems.push(`${op.id} request body: content type ${JSON.stringify(type)} is not one of ${v.bodyTypes.join(", ")}`);
      }
      check("request body", v.body, req.body);
    }
    return problems.length ? { ...base, operationId: op.id, problems } : undefined;
  }

  /**
   * Checks one response sent to a request; undefined when the spec allows it. Requests that match
   * no operation are reported by checkRequest alone, so this answers undefined for them.
   */
  checkResponse(req: { method: string; path: string }, res: ContractResponse): ContractViolation | undefined {
    const method = req.method.toUpperCase();
    const found = this.match(method, req.path);
    if ("problem" in found) return undefined;
    const { op } = found;
    const problems = this.responseProblems(op, res);
    return problems.length ? { direction: "response", method, path: req.path, operationId: op.id, status: res.status, problems } : undefined;
  }

  /** Finds the operation of a /v1 path; literal segments win over templated ones, left to right. */
  private match(method: string, path: string): { op: Operation; pathParams: Record<string, string> } | { problem: string } {
    if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return { problem: `${method} ${path}: the API is rooted at ${PREFIX}` };
    const segments = splitPath(path.slice(PREFIX.length));
    if (!segments) return { problem: `${method} ${path}: malformed percent-encoding in the path` };
    let best: Operation | undefined;
    for (const op of this.byShape.get(shapeKey(method, segments.length)) ?? []) {
      if (fits(op, segments) && (!best || moreSpecific(op, best))) best = op;
    }
    if (!best) {
      const others = (this.pathsByShape.get(shapeKey("*", segments.length)) ?? []).filter((op) => fits(op, segments));
      if (others.length === 0) return { problem: `${method} ${path}: no operation of the spec has this path` };
      const templates = [...new Set(others.map((o) => o.template))].join(", ");
      const methods = [...new Set(others.map((o) => o.method))].join(", ");
      return { problem: `${method} ${path}: the spec has no ${method} operation on ${templates} (it has ${methods})` };
    }
    const pathParams: Record<string, string> = {};
    best.segments.forEach((s, i) => {
      if ("param" in s) pathParams[s.param] = segments[i]!;
    });
    return { op: best, pathParams };
  }

  private requestValidatorsOf(op: Operation): RequestValidators {
    const cached = this.requestValidators.get(op);
    if (cached) return cached;
    const params = this.parametersOf(op);
    const compileParams = (location: ParamLocation): ValidateFunction | undefined => {
      const own = params.filter((p) => p.in === location);
      // Header names are case-insensitive and requests carry many headers the spec never lists.
      if (location === "header" && own.length === 0) return undefined;
      const name = (p: (typeof own)[number]) => (location === "header" ? p.name.toLowerCase() : p.name);
      return this.paramAjv.compile({
        type: "object",
        properties: Object.fromEntries(own.map((p) => [name(p), p.schemaRef ? { $ref: p.schemaRef } : {}])),
        required: own.filter((p) => p.required).map(name),
        additionalProperties: location === "header",
      });
    };
    const body = this.resolve(op.object.requestBody, [...op.at, "requestBody"]);
    const content = (body?.value.content ?? {}) as Json;
    const bodyTypes = Object.keys(content);
    const json = bodyTypes.find(isJsonType);
    const v: RequestValidators = {
      params: { path: compileParams("path"), query: compileParams("query"), header: compileParams("header") },
      bodyRequired: body?.value.required === true,
      bodyTypes,
    };
    if (json && (content[json] as Json).schema !== undefined) v.body = this.ajv.compile({ $ref: ref([...body!.at, "content", json, "schema"]) });
    this.requestValidators.set(op, v);
    return v;
  }

  /** The operation's parameters, path-level ones overridden by operation-level ones of the same name and place. */
  private parametersOf(op: Operation): { name: string; in: string; required: boolean; schemaRef?: string }[] {
    const pathAt = op.at.slice(0, 2);
    const lists: [unknown, string[]][] = [
      [(this.pointer(pathAt) as Json).parameters, [...pathAt, "parameters"]],
      [op.object.parameters, [...op.at, "parameters"]],
    ];
    const out = new Map<string, { name: string; in: string; required: boolean; schemaRef?: string }>();
    for (const [list, at] of lists) {
      if (!Array.isArray(list)) continue;
      list.forEach((raw, i) => {
        const p = this.resolve(raw, [...at, String(i)])!;
        const name = String(p.value.name);
        const place = String(p.value.in);
        const param = { name, in: place, required: p.value.required === true || place === "path" };
        // A parameter described by `content` instead of `schema` (none in this document) is only checked for presence.
        out.set(`${place}:${name}`, p.value.schema !== undefined ? { ...param, schemaRef: ref([...p.at, "schema"]) } : param);
      });
    }
    return [...out.values()];
  }

  private responseProblems(op: Operation, res: ContractResponse): string[] {
    const rule = this.responseRuleOf(op, res.status);
    const where = `${op.id} response ${res.status}`;
    const hasBody = res.body !== undefined;
    switch (rule.kind) {
      case "undeclared":
        return [`${where}: the spec declares no such status for this operation (it declares ${rule.declared.join(", ") || "none"})`];
      case "empty":
        return hasBody ? [`${where}: ${rule.label} declares no body, one was sent`] : [];
      case "other":
        return hasBody && res.contentType !== undefined && !rule.types.includes(mediaType(res.contentType))
          ? [`${where}: content type ${JSON.stringify(res.contentType)} is not one of ${rule.types.join(", ")}`]
          : [];
      case "json": {
        if (!hasBody) return [`${where}: ${rule.label} declares a JSON body, none was sent`];
        const problems: string[] = [];
        if (res.contentType !== undefined && !isJsonType(mediaType(res.contentType))) {
          problems.push(`${where}: content type ${JSON.stringify(res.contentType)} is not JSON`);
        }
        if (!rule.validate(res.body)) problems.push(...describe(rule.validate.errors ?? [], `${where} body`));
        return problems;
      }
    }
  }

  /**
   * The declared response for a status (exact, then its range such as 4XX, then `default`). GitBook
   * answers errors the operations do not list (a 400 for a bad body, 401, 404, 429, 5xx), always in
   * one shape that the document defines as the `Error` schema; so an undeclared error status is held
   * to that schema with `error.code` equal to the status, while an undeclared success is a violation.
   */
  private responseRuleOf(op: Operation, status: number): ResponseRule {
    const key = `${op.id} ${status}`;
    const cached = this.responseRules.get(key);
    if (cached) return cached;
    const responses = (op.object.responses ?? {}) as Json;
    const declared = [String(status), `${String(status)[0]}XX`, "default"].find((k) => responses[k] !== undefined);
    let rule: ResponseRule;
    if (declared !== undefined) {
      const r = this.resolve(responses[declared], [...op.at, "responses", declared])!;
      const content = (r.value.content ?? {}) as Json;
      const types = Object.keys(content);
      const json = types.find(isJsonType);
      const label = declared === String(status) ? `status ${status}` : `its "${declared}" response`;
      if (types.length === 0) rule = { kind: "empty", label };
      else if (json && (content[json] as Json).schema !== undefined) {
        rule = { kind: "json", validate: this.ajv.compile({ $ref: ref([...r.at, "content", json, "schema"]) }), label };
      } else rule = { kind: "other", types, label };
    } else if (status >= 400 && this.pointer(ERROR_SCHEMA) !== undefined) {
      rule = this.errorRuleOf(status);
    } else {
      rule = { kind: "undeclared", declared: Object.keys(responses) };
    }
    this.responseRules.set(key, rule);
    return rule;
  }

  /** Shared by every operation that does not declare `status`. */
  private errorRuleOf(status: number): ResponseRule {
    const key = `* ${status}`;
    const cached = this.responseRules.get(key);
    if (cached) return cached;
    const validate = this.ajv.compile({
      allOf: [{ $ref: ref(ERROR_SCHEMA) }],
      properties: { error: { properties: { code: { const: status } } } },
    });
    const rule: ResponseRule = { kind: "json", validate, label: `the document's Error schema (status ${status} is not declared)` };
    this.responseRules.set(key, rule);
    return rule;
  }

  /** Follows `$ref`s (local ones: the document has no others) to the object and where it is. */
  private resolve(raw: unknown, at: string[]): { value: Json; at: string[] } | undefined {
    let value = raw as Json | undefined;
    for (let hops = 0; value && typeof value.$ref === "string"; hops++) {
      if (hops > 16 || !value.$ref.startsWith("#/")) throw new Error(`Contract: cannot follow $ref ${value.$ref}`);
      at = value.$ref.slice(2).split("/").map(unescapeToken);
      value = this.pointer(at) as Json | undefined;
    }
    return value ? { value, at } : undefined;
  }

  private pointer(at: string[]): unknown {
    return at.reduce<unknown>((node, token) => (node as Json | undefined)?.[token], this.doc);
  }
}

/** One line per problem; the operation and the place are already in each problem. */
export function formatViolation(v: ContractViolation): string {
  const head = `${v.direction} ${v.method} ${v.path}${v.status !== undefined ? ` -> ${v.status}` : ""} breaks GitBook's API spec`;
  return [head, ...v.problems.map((p) => `  - ${p}`)].join("\n");
}

// ---------------------------------------------------------------- document index

function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const segments: Segment[] = template
      .split("/")
      .slice(1)
      .map((s) => (/^\{[^}]+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s }));
    for (const method of METHODS) {
      const object = item[method] as Json | undefined;
      if (!object) continue;
      const id = typeof object.operationId === "string" ? object.operationId : `${method.toUpperCase()} ${template}`;
      out.push({ id, method: method.toUpperCase(), template, segments, at: ["paths", template, method], object });
    }
  }
  return out;
}

function shapeKey(method: string, length: number): string {
  return `${method} ${length}`;
}

function splitPath(path: string): string[] | undefined {
  try {
    return path.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function fits(op: Operation, segments: string[]): boolean {
  return op.segments.every((s, i) => ("param" in s ? segments[i] !== "" : s.literal === segments[i]));
}

/** At the first segment where they differ in kind, the literal one is the more specific. */
function moreSpecific(a: Operation, b: Operation): boolean {
  const differs = a.segments.find((s, i) => ("literal" in s) !== ("literal" in b.segments[i]!));
  return differs !== undefined && "literal" in differs;
}

/** The `x-` extension keys used anywhere in the document (annotations by definition). */
function extensionKeywords(doc: Json): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k.startsWith("x-")) found.add(k);
        walk(v);
      }
    }
  };
  walk(doc);
  return [...found];
}

function newAjv(doc: Json, annotations: string[], opts: { coerceTypes?: "array" }): Ajv2020 {
  // strictTypes/strictRequired/strictTuples would reject GitBook's style (e.g. `additionalProperties`
  // without `type: object`), which is valid JSON Schema; unknown keywords still fail compilation.
  // `code.optimize: false`: ajv's default pass over the generated code (renaming and dropping unused
  // names) took 40% of compiling this document's validators (6.7 s to 4.2 s of CPU for all 377
  // operations) and did not make a check measurably faster; what a validator accepts is the same.
  const ajv = new Ajv2020({
    ...opts,
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    code: { optimize: false },
  });
  addFormats(ajv);
  // GitBook's own formats, defined nowhere in the document: annotations, as OpenAPI says unknown formats are.
  ajv.addFormat("emoji", true);
  ajv.addFormat("icon", true);
  for (const keyword of annotations) ajv.addKeyword({ keyword });
  ajv.addSchema(doc, SPEC_ID);
  return ajv;
}

function ref(at: string[]): string {
  return `${SPEC_ID}#${at.map((t) => `/${encodeURIComponent(t.replace(/~/g, "~0").replace(/\//g, "~1"))}`).join("")}`;
}

function unescapeToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
}

// ---------------------------------------------------------------- request parts

function queryObject(query: ContractRequest["query"]): Record<string, string | string[]> {
  if (!(query instanceof URLSearchParams)) return { ...query };
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

function lowerKeys(headers: NonNullable<ContractRequest["headers"]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

function headerValue(headers: ContractRequest["headers"], name: string): string | undefined {
  if (!headers) return undefined;
  const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

function mediaType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

function isJsonType(type: string): boolean {
  return type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

// ---------------------------------------------------------------- problems

interface Problem {
  /** JSON pointer of the offending value. */
  at: string;
  text: string;
  /** Shown as "(got ...)" unless an enclosing oneOf line already shows it. */
  value?: unknown;
}

/**
 * Turns ajv's errors into lines `${where} ${pointer}: ${what}`. The failed alternatives of a
 * oneOf/anyOf are reported just before it, at or below its pointer (ajv evaluates the applicators
 * of a schema before its object keywords); they are folded into the one line of the oneOf, so a
 * value that matches no alternative reads as one problem listing why each alternative failed.
 */
function describe(errors: ErrorObject[], where: string, unknownName = "is not allowed here (additionalProperties: false)"): string[] {
  const stack: Problem[] = [];
  for (const e of errors) {
    if (e.keyword !== "oneOf" && e.keyword !== "anyOf") {
      stack.push(problemOf(e, unknownName));
      continue;
    }
    const branches: Problem[] = [];
    while (stack.length && within(stack[stack.length - 1]!.at, e.instancePath)) branches.unshift(stack.pop()!);
    const passing = (e.params as { passingSchemas?: number[] | null }).passingSchemas;
    if (passing) {
      stack.push({ at: e.instancePath, text: `matches more than one alternative of oneOf (#${passing.join(", #")})`, value: e.data });
      continue;
    }
    const reasons = [
      ...new Set(branches.map((b) => (b.at === e.instancePath ? b.text : `${b.at.slice(e.instancePath.length)}: ${render(b)}`))),
    ];
    const shown = reasons.slice(0, 6).join("; or ") + (reasons.length > 6 ? `; or ${reasons.length - 6} more` : "");
    stack.push({ at: e.instancePath, text: `matches none of the alternatives of ${e.keyword}${shown ? ` (${shown})` : ""}`, value: e.data });
  }
  return [...new Set(stack.map((p) => `${where}${p.at ? ` ${p.at}` : ""}: ${render(p)}`))];
}

function within(at: string, parent: string): boolean {
  return at === parent || at.startsWith(`${parent}/`);
}

function problemOf(e: ErrorObject, unknownName: string): Problem {
  const params = e.params as Record<string, unknown>;
  const child = (name: unknown) => `${e.instancePath}/${String(name).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  switch (e.keyword) {
    case "required":
      return { at: child(params.missingProperty), text: "is required" };
    case "additionalProperties":
      return { at: child(params.additionalProperty), text: unknownName };
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      return { at: e.instancePath, text: allowed.length === 1 ? `must be ${allowed[0]}` : `must be one of ${allowed.join(", ")}`, value: e.data };
    }
    case "const":
      return { at: e.instancePath, text: `must be ${JSON.stringify(params.allowedValue)}`, value: e.data };
    case "type":
    case "format":
    case "pattern":
      return { at: e.instancePath, text: e.message ?? e.keyword, value: e.data };
    default:
      return { at: e.instancePath, text: e.message ?? e.keyword };
  }
}

/** The problem with the offending value, shortened: enough to recognise it in a report. */
function render(p: Problem): string {
  if (p.value === undefined) return p.text;
  const text = JSON.stringify(p.value);
  return `${p.text} (got ${text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}
