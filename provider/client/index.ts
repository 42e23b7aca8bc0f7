export * from "./errors";
export * from "./retry";
export * from "./schemas";
export { GitbookClient, DEFAULT_API_URL, MAX_PAGE_SIZE, apiUrlProblem, p, packageVersion } from "./client";
export type { ClientOptions, RequestOptions, AttemptInfo, RetryInfo, Query, Since } from "./client";
