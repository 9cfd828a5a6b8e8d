// Kysely table types of the crisis module (merged into the app's Database in src/platform/db/schema.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.

// biome-ignore lint/suspicious/noEmptyInterface: the module's tables are added by issue 5
export interface CrisisTables {}
