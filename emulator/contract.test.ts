import { describe, expect, it } from "vitest";

import { Contract, formatViolation, type ContractViolation } from "./contract";

const contract = Contract.load();

const SHARE_LINKS = "/v1/orgs/org_1/sites/site_1/share-links";
const shareLink = {
  object: "share-link",
  id: "shl_1",
  createdAt: "2026-01-02T03:04:05.000Z",
  name: "Partners",
  active: true,
  urls: { published: "https://docs.example.com/?share=abc" },
};

/** The problems of a violation, which must exist: a test reading them fails on a pass. */
function problems(v: ContractViolation | undefined): string[] {
  expect(v, "expected a violation").toBeDefined();
  return v!.problems;
}

describe("requests", () => {
  it("accepts valid calls, parameters given as strings as they arrive", () => {
    expect(contract.checkRequest({ method: "POST", path: SHARE_LINKS, query: {}, body: { name: "Partners" } })).toBeUndefined();
    expect(contract.checkRequest({ method: "get", path: "/v1/orgs/org_1/sites", query: { limit: "1000", page: "abc", published: "true" } })).toBeUndefined();
    expect(contract.checkRequest({ method: "GET", path: "/v1/orgs/org_1/sites", query: new URLSearchParams("type=basic&type=ultimate") })).toBeUndefined();
    expect(contract.checkRequest({ method: "PATCH", path: "/v1/orgs/org_1/sites/site_1", query: {}, body: { proxy: null, title: "Docs" } })).toBeUndefined();
    expect(contract.checkRequest({ method: "DELETE", path: `${SHARE_LINKS}/shl_1`, query: {} })).toBeUndefined();
  });

  it("reports a path that no operation has, without an operation", () => {
    const v = contract.checkRequest({ method: "GET", path: "/v1/orgs/org_1/site", query: {} });
    expect(v?.operationId).toBeUndefined();
    expect(problems(v)).toEqual(["GET /v1/orgs/org_1/site: no operation of the spec has this path"]);
  });

  it("reports a path whose percent-encoding cannot be decoded", () => {
    expect(problems(contract.checkRequest({ method: "GET", path: "/v1/spaces/%E0%A4", query: {} }))).toEqual(["GET /v1/spaces/%E0%A4: malformed percent-encoding in the path"]);
  });

  it("reports a path outside /v1", () => {
    expect(problems(contract.checkRequest({ method: "GET", path: "/orgs/org_1", query: {} }))).toEqual(["GET /orgs/org_1: the API is rooted at /v1"]);
  });

  it("reports a method the path does not have, naming the methods it has", () => {
    expect(problems(contract.checkRequest({ method: "PATCH", path: "/v1/orgs/org_1/teams", query: {} }))).toEqual([
      "PATCH /v1/orgs/org_1/teams: the spec has no PATCH operation on /orgs/{organizationId}/teams (it has GET, PUT)",
    ]);
  });

  it("reports a missing required body field by operation and pointer", () => {
    const v = contract.checkRequest({ method: "POST", path: SHARE_LINKS, query: {}, body: {} });
    expect(v?.operationId).toBe("createSiteShareLink");
    expect(problems(v)).toEqual(["createSiteShareLink request body /name: is required"]);
  });

  it("reports an over-long string with the limit", () => {
    expect(problems(contract.checkRequest({ method: "POST", path: SHARE_LINKS, query: {}, body: { name: "x".repeat(51) } }))).toEqual([
      "createSiteShareLink request body /name: must NOT have more than 50 characters",
    ]);
  });

  it("reports a missing body, and a body sent to an operation that takes none", () => {
    expect(problems(contract.checkRequest({ method: "POST", path: SHARE_LINKS, query: {} }))).toEqual([
      "createSiteShareLink request body: is required (application/json)",
    ]);
    expect(problems(contract.checkRequest({ method: "GET", path: "/v1/orgs/org_1", query: {}, body: {} }))).toEqual([
      "getOrganizationById request body: the operation takes none",
    ]);
  });

  it("reports a body of another content type", () => {
    const v = contract.checkRequest({ method: "POST", path: SHARE_LINKS, query: {}, headers: { "Content-Type": "text/plain" }, body: { name: "a" } });
    expect(problems(v)).toEqual(['createSiteShareLink request body: content type "text/plain" is not one of application/json']);
  });

  it("reports query parameters of the wrong type, out of their enum, or unknown", () => {
    const v = contract.checkRequest({ method: "GET", path: "/v1/orgs/org_1/sites", query: { limit: "ten", type: ["basic", "free"], sort: "title" } });
    expect(v?.operationId).toBe("listSites");
    expect(problems(v).sort()).toEqual([
      'listSites query /limit: must be number (got "ten")',
      "listSites query /sort: is not a query parameter of this operation",
      'listSites query /type/1: must be one of "basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium" (got "free")',
    ]);
  });

  it("checks path parameters against their schema", () => {
    expect(problems(contract.checkRequest({ method: "GET", path: "/v1/orgs/org%201", query: {} }))).toEqual([
      'getOrganizationById path /organizationId: must match pattern "^[a-zA-Z0-9_-]+$" (got "org 1")',
    ]);
  });

  it("prefers a literal path segment to a templated one", () => {
    const latest = contract.checkRequest({ method: "GET", path: "/v1/orgs/org_1/openapi/petstore/versions/latest", query: {}, body: {} });
    expect(latest?.operationId).toBe("getLatestOpenAPISpecVersion");
    const byId = contract.checkRequest({ method: "GET", path: "/v1/orgs/org_1/openapi/petstore/versions/v_1", query: {}, body: {} });
    expect(byId?.operationId).toBe("getOpenAPISpecVersionById");
  });

  it("folds the failed alternatives of a oneOf into one problem", () => {
    expect(problems(contract.checkRequest({ method: "PATCH", path: "/v1/orgs/org_1/sites/site_1", query: {}, body: { proxy: 5 } }))).toEqual([
      "updateSiteById request body /proxy: matches none of the alternatives of oneOf (must be string; or must be null) (got 5)",
    ]);
  });
});

describe("responses", () => {
  const create = { method: "POST", path: SHARE_LINKS };

  it("accepts a declared response with a valid body, and 204/205 without one", () => {
    expect(contract.checkResponse(create, { status: 201, body: shareLink, contentType: "application/json; charset=utf-8" })).toBeUndefined();
    expect(contract.checkResponse({ method: "DELETE", path: "/v1/orgs/org_1/sites/site_1" }, { status: 204, body: undefined })).toBeUndefined();
    expect(contract.checkResponse({ method: "DELETE", path: "/v1/orgs/org_1/sites/site_1" }, { status: 205, body: undefined })).toBeUndefined();
  });

  it("reports a missing required property by operation, status and pointer", () => {
    const { urls: _urls, ...withoutUrls } = shareLink;
    const v = contract.checkResponse(create, { status: 201, body: withoutUrls });
    expect(v).toMatchObject({ direction: "response", operationId: "createSiteShareLink", status: 201 });
    expect(problems(v)).toEqual(["createSiteShareLink response 201 body /urls: is required"]);
  });

  it("reports a wrong value deep in the body", () => {
    const v = contract.checkResponse(create, { status: 201, body: { ...shareLink, urls: { published: "not a url" } } });
    expect(problems(v)).toEqual(['createSiteShareLink response 201 body /urls/published: must match format "uri" (got "not a url")']);
  });

  it("reports a success status the operation does not declare", () => {
    expect(problems(contract.checkResponse(create, { status: 200, body: shareLink }))).toEqual([
      "createSiteShareLink response 200: the spec declares no such status for this operation (it declares 201)",
    ]);
  });

  it("reports a missing body where one is declared, and a body where none is", () => {
    expect(problems(contract.checkResponse(create, { status: 201, body: undefined }))).toEqual([
      "createSiteShareLink response 201: status 201 declares a JSON body, none was sent",
    ]);
    expect(problems(contract.checkResponse({ method: "DELETE", path: `${SHARE_LINKS}/shl_1` }, { status: 204, body: {} }))).toEqual([
      "deleteSiteShareLinkById response 204: status 204 declares no body, one was sent",
    ]);
  });

  it("holds undeclared error statuses to the document's Error schema with the status as code", () => {
    expect(contract.checkResponse(create, { status: 429, body: { error: { code: 429, message: "Too many requests" } } })).toBeUndefined();
    expect(problems(contract.checkResponse(create, { status: 503, body: { error: { code: 500, message: "x" } } }))).toEqual([
      "createSiteShareLink response 503 body /error/code: must be 503 (got 500)",
    ]);
    expect(problems(contract.checkResponse(create, { status: 400, body: { message: "bad" } }))).toEqual([
      "createSiteShareLink response 400 body /error: is required",
    ]);
  });

  it("reports a JSON body under a content type that is not JSON", () => {
    expect(problems(contract.checkResponse(create, { status: 201, body: shareLink, contentType: "text/html" }))).toEqual([
      'createSiteShareLink response 201: content type "text/html" is not JSON',
    ]);
  });

  it("holds a response the spec declares in another media type (an event stream) to that type only", () => {
    const stream = { method: "GET", path: "/v1/orgs/org_1/ask/stream" };
    expect(contract.checkResponse(stream, { status: 200, body: "data: {}", contentType: "text/event-stream" })).toBeUndefined();
    expect(problems(contract.checkResponse(stream, { status: 200, body: { answer: "x" }, contentType: "application/json" }))).toEqual([
      expect.stringMatching(/^\w+ response 200: content type "application\/json" is not one of text\/event-stream$/),
    ]);
  });

  it("leaves requests that match no operation to checkRequest", () => {
    expect(contract.checkResponse({ method: "GET", path: "/v1/nowhere" }, { status: 404, body: {} })).toBeUndefined();
  });
});

it("formats a violation as one line per problem under a heading", () => {
  const v = contract.checkRequest({ method: "POST", path: SHARE_LINKS, query: {}, body: {} })!;
  expect(formatViolation(v)).toBe(
    "request POST /v1/orgs/org_1/sites/site_1/share-links breaks GitBook's API spec\n  - createSiteShareLink request body /name: is required",
  );
});
