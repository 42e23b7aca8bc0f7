import { describe, expect, it } from "vitest";
import { checkCondition, checkConditions, claimReferences, declaredClaims, type ClaimsSchema } from "./conditions";

const schema: ClaimsSchema = {
  properties: {
    isBetaUser: { type: "boolean" },
    roles: { type: "array" },
    account: { type: "object", properties: { plan: { type: "string" } } },
    unsigned: { type: "object", properties: { language: { type: "string" }, plan: { type: "string" } } },
  },
};

describe("declared claims", () => {
  it("lists every claim a condition may name, objects of claims included", () => {
    expect(declaredClaims(schema)).toEqual([
      "visitor.claims.isBetaUser",
      "visitor.claims.roles",
      "visitor.claims.account",
      "visitor.claims.account.plan",
      "visitor.claims.unsigned",
      "visitor.claims.unsigned.language",
      "visitor.claims.unsigned.plan",
    ]);
  });
});

describe("conditions that name declared claims, or no claim for certain, pass", () => {
  const valid: [string, string][] = [
    ["a signed claim", "visitor.claims.isBetaUser == true"],
    ["claims combined", `visitor.claims.unsigned.language == "fr" && visitor.claims.account.plan === 'pro' || !visitor.claims.isBetaUser`],
    ["bracket access with string literals", `visitor.claims["unsigned"]['language'] == "fr"`],
    ["optional chaining", "visitor.claims?.unsigned?.language == 'fr' || visitor.claims?.['account']?.plan"],
    ["a method of a value claim", `visitor.claims.roles.includes("admin")`],
    ["a property of a value claim", "visitor.claims.roles.length > 0 && visitor.claims.account.plan.toUpperCase() == 'PRO'"],
    ["a spread value claim", "[...visitor.claims.roles].length > 1"],
    ["a computed key it cannot name", "visitor.claims[key] == 1 || visitor.claims.roles[0] == 'admin'"],
    ["a key with escapes it cannot name for certain", String.raw`visitor.claims["is\u0042etaUser"]`],
    ["a claim named inside a string", `"visitor.claims.nope" != visitor.claims.unsigned.language`],
    ["a claim named inside a regular expression", "/visitor.claims.nope/.test(visitor.claims.unsigned.language)"],
    ["a claim named inside a comment", "/* visitor.claims.nope */ visitor.claims.isBetaUser // visitor.claims.other"],
    ["a declared claim inside a template literal", "`${visitor.claims.unsigned.language}-x` == 'fr-x'"],
    ["a property of something else named visitor", "page.visitor.claims.nope == 1"],
    ["a method called on the claims object", `visitor.claims.hasOwnProperty("nope")`],
    ["no claim at all", `space.vars.version == "2" && visitor.claims`],
    ["a division, not a regular expression", "visitor.claims.roles.length / 2 > 1"],
  ];
  for (const [what, condition] of valid) {
    it(what, () => expect(checkCondition(schema, condition)).toEqual([]));
  }

  it("leaves alone an expression it cannot read, whatever it names", () => {
    for (const condition of [`visitor.claims.nope == "unterminated`, "visitor.claims.nope == `open", "visitor.claims.nope /* open"]) {
      expect(claimReferences(condition)).toBeUndefined();
      expect(checkCondition(schema, condition)).toEqual([]);
    }
  });
});

describe("conditions that name a claim the schema does not declare fail", () => {
  it("names where, the condition, the claim and the nearest declared claim", () => {
    const [p, ...rest] = checkConditions(schema, [
      { where: 'section "guides"', condition: "visitor.claims.isBetaUser == true" },
      { where: 'site space "guides/v1"', condition: "visitor.claims.isBetaUsr == true" },
    ]);
    expect(rest).toEqual([]);
    expect(p).toEqual({
      where: 'site space "guides/v1"',
      condition: "visitor.claims.isBetaUsr == true",
      claim: "visitor.claims.isBetaUsr",
      missing: "visitor.claims.isBetaUsr",
      nearest: "visitor.claims.isBetaUser",
      message:
        'site space "guides/v1": condition "visitor.claims.isBetaUsr == true" names the claim visitor.claims.isBetaUsr, but the site\'s adaptive schema declares no such claim; nearest declared claim: visitor.claims.isBetaUser',
    });
  });

  it("points at the unsigned claim of that name when a condition reads it as signed", () => {
    expect(checkCondition(schema, 'visitor.claims.plan == "pro"')[0]).toMatchObject({ claim: "visitor.claims.plan", nearest: "visitor.claims.unsigned.plan" });
  });

  it("names the first missing part inside an object of claims", () => {
    expect(checkCondition(schema, 'visitor.claims.unsigned.lang == "fr"')[0]).toMatchObject({
      missing: "visitor.claims.unsigned.lang",
      nearest: "visitor.claims.unsigned.language",
      message: expect.stringContaining('declares no "lang" in visitor.claims.unsigned'),
    });
    expect(checkCondition(schema, "visitor.claims.acount.plan")[0]).toMatchObject({ claim: "visitor.claims.acount.plan", missing: "visitor.claims.acount", nearest: "visitor.claims.account.plan" });
    expect(checkCondition(schema, "visitor.claims.account.tier")[0]).toMatchObject({ missing: "visitor.claims.account.tier", nearest: "visitor.claims.account.plan" });
  });

  it("reads bracket names, optional chains and template literal parts", () => {
    expect(checkCondition(schema, `visitor.claims["no such"] == 1`).map((p) => p.claim)).toEqual(['visitor.claims["no such"]']);
    expect(checkCondition(schema, "visitor.claims?.unsigned?.['langage']").map((p) => p.claim)).toEqual(["visitor.claims.unsigned.langage"]);
    expect(checkCondition(schema, "`${visitor.claims.nope}` == 'x'").map((p) => p.claim)).toEqual(["visitor.claims.nope"]);
  });

  it("reports every missing claim of a condition", () => {
    expect(checkCondition(schema, "visitor.claims.a && visitor.claims.unsigned.b").map((p) => p.claim)).toEqual(["visitor.claims.a", "visitor.claims.unsigned.b"]);
  });

  it("fails unsigned claims against a schema without unsigned claims, and says when a schema declares none", () => {
    const signedOnly: ClaimsSchema = { properties: { isBetaUser: { type: "boolean" } } };
    expect(checkCondition(signedOnly, "visitor.claims.unsigned.language")[0]).toMatchObject({ missing: "visitor.claims.unsigned" });
    const [p] = checkCondition({ properties: {} }, "visitor.claims.isBetaUser");
    expect(p!.nearest).toBeUndefined();
    expect(p!.message).toMatch(/it declares no claims at all$/);
  });
});
