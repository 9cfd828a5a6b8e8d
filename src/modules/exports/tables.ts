// Kysely table types of the exports module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.

// biome-ignore lint/suspicious/noEmptyInterface: filled in as the module's tables are designed.
export interface ExportsTables {}
