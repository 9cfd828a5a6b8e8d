// The SDK's types are the OpenAPI document's: a program that misuses a field, a query parameter, pagination
// or a named shape does not compile, while the README-style program does, with browser types only (no Node
// types: the core must run in browsers and Deno).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'types');
const FILES = ['correct.ts', 'misuse-field.ts', 'misuse-query.ts', 'misuse-paginate.ts', 'misuse-shape.ts'];

/** Type-checks the fixtures as one program and returns each file's error messages. */
function typeCheck(): Map<string, string[]> {
  const program = ts.createProgram(
    FILES.map((f) => path.join(DIR, f)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      verbatimModuleSyntax: true,
    },
  );
  const errors = new Map<string, string[]>(FILES.map((f) => [f, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? path.relative(DIR, diagnostic.file.fileName) : '(global)';
    const list = errors.get(file) ?? [];
    list.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    errors.set(file, list);
  }
  return errors;
}

test('a misused field, query parameter or paginated path fails tsc; the correct program passes', () => {
  const errors = typeCheck();
  const outside = [...errors].filter(([file]) => !FILES.includes(file));
  assert.deepEqual(outside, [], 'no errors in the SDK itself under browser types');
  assert.deepEqual(errors.get('correct.ts'), []);
  assert.match(errors.get('misuse-field.ts')!.join('\n'), /velocity_scroe.*velocity_score/s);
  const query = errors.get('misuse-query.ts')!.join('\n');
  assert.match(query, /'string' is not assignable to type 'number'/);
  assert.match(query, /"popularity"/);
  assert.match(errors.get('misuse-paginate.ts')!.join('\n'), /\/api\/trends\/categories/);
  const shape = errors.get('misuse-shape.ts')!.join('\n');
  assert.match(shape, /'velocity_scroe' does not exist/);
  assert.match(shape, /"king"/);
  assert.match(shape, /"\/api\/plans"' does not satisfy the constraint/);
});
