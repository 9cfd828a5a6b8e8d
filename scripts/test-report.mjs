// The node:test reporter of `scripts/run-tests.mjs`' workers: one line per test file as it ends, and each failed
// test in full (its suite path, error and stack) at the moment it fails. The file suites are the top level
// (nesting 0), named by the file's path; `TEST_RESULTS` (a file) receives one JSON line per file for the parent.
import fs from 'node:fs';
import { inspect } from 'node:util';

const results = process.env.TEST_RESULTS;
const counts = () => ({ pass: 0, fail: 0, skip: 0, todo: 0 });

function failureText(error) {
  // node:test wraps what the test threw in an ERR_TEST_FAILURE.
  const thrown = error?.code === 'ERR_TEST_FAILURE' && error.cause ? error.cause : error;
  return inspect(thrown, { depth: 4, colors: false })
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

export default async function* report(source) {
  const path = []; // names of the suites currently open, by nesting
  let tally = counts();
  for await (const event of source) {
    const data = event.data;
    if (event.type === 'test:start') {
      path[data.nesting] = data.name;
      path.length = data.nesting + 1;
      if (data.nesting === 0) tally = counts();
      continue;
    }
    if (event.type === 'test:diagnostic' && data.nesting > 0) {
      yield `    # ${data.message}\n`;
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const isSuite = data.details?.type === 'suite';
    if (data.nesting === 0) {
      const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(1).padStart(6);
      const failed = event.type === 'test:fail' || tally.fail > 0;
      const parts = [`${tally.pass} passed`];
      if (tally.fail) parts.push(`${tally.fail} failed`);
      if (tally.skip) parts.push(`${tally.skip} skipped`);
      if (tally.todo) parts.push(`${tally.todo} todo`);
      // A file that fails outside any test (an import error, a hook) shows its error here.
      if (event.type === 'test:fail' && tally.fail === 0)
        yield `not ok ${data.name}\n${failureText(data.details?.error)}\n`;
      yield `${failed ? 'FAIL' : 'ok  '} ${seconds} s  ${data.name}  (${parts.join(', ')})\n`;
      if (results)
        fs.appendFileSync(
          results,
          `${JSON.stringify({ file: data.name, ms: data.details?.duration_ms ?? 0, failed, ...tally })}\n`,
        );
      continue;
    }
    if (isSuite) {
      // A suite's own failure (a hook) beyond its tests' failures.
      if (event.type === 'test:fail' && data.details?.error?.failureType !== 'subtestsFailed') {
        tally.fail++;
        yield `not ok ${path.slice(0, data.nesting + 1).join(' › ')}\n${failureText(data.details?.error)}\n`;
      }
      continue;
    }
    if (data.skip !== undefined && data.skip !== false) tally.skip++;
    else if (data.todo !== undefined && data.todo !== false) tally.todo++;
    else if (event.type === 'test:pass') tally.pass++;
    else {
      tally.fail++;
      yield `not ok ${path.slice(0, data.nesting + 1).join(' › ')}\n${failureText(data.details?.error)}\n`;
    }
  }
}
