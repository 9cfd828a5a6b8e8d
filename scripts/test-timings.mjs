// A node:test reporter writing one JSON line per top-level test: its file and duration (scripts/run-tests.mjs
// sums them per file).
export default async function* timings(source) {
  for await (const event of source) {
    if (
      (event.type === 'test:pass' || event.type === 'test:fail') &&
      event.data.nesting === 0 &&
      event.data.file
    )
      yield `${JSON.stringify({ file: event.data.file, ms: event.data.details?.duration_ms ?? 0 })}\n`;
  }
}
