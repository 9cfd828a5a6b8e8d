// Kysely table types of the reports module (merged into the app's Database in src/database.ts).
// Timestamps are epoch ms, booleans 0/1 and JSON is text, as everywhere else.

// biome-ignore lint/suspicious/noEmptyInterface: reports store nothing (they ask the trends and crisis services).
export interface ReportsTables {}
