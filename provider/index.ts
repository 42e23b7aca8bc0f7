export { Site, type SiteArgs, type SiteInputs, type SiteOutputs } from "./resources/site";
export * as client from "./client";
