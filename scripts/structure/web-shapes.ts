// The dashboard's API shapes come from @crestwatch/client: for the "web-shapes-from-sdk" rule of
// scripts/lint-structure.ts. A copy by hand drifts silently when a route's schema changes; the SDK's types are
// regenerated from the served document (`npm run client:check` fails when schema.d.ts lags it).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const CLIENT = path.resolve(import.meta.dirname, '../../packages/client/src');
const SDK = '@crestwatch/client';

function parse(file: string, text = fs.readFileSync(file, 'utf8')): ts.SourceFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The names of `components.schemas` in the generated schema.d.ts: the document's schemas. */
function schemaNames(): string[] {
  const source = parse(path.join(CLIENT, 'schema.d.ts'));
  const components = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'components',
  );
  const schemas = components?.members.find((m) => m.name?.getText(source) === 'schemas');
  // Fails loudly: a generator change must not leave the rule checking nothing.
  if (!schemas || !ts.isPropertySignature(schemas) || !schemas.type || !ts.isTypeLiteralNode(schemas.type)) {
    throw new Error('packages/client/src/schema.d.ts: components.schemas not found');
  }
  return schemas.type.members.map((m) => m.name!.getText(source).replace(/^["']|["']$/g, ''));
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names the SDK's entry (packages/client/src/index.ts) exports. */
function sdkExports(): string[] {
  const names: string[] = [];
  for (const statement of parse(path.join(CLIENT, 'index.ts')).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (!statement.exportClause)
        throw new Error('packages/client/src/index.ts: `export *` hides its names');
      if (ts.isNamedExports(statement.exportClause))
        names.push(...statement.exportClause.elements.map((e) => e.name.text));
      else names.push(statement.exportClause.name.text);
    } else if (isExported(statement)) {
      if (ts.isVariableStatement(statement))
        names.push(...statement.declarationList.declarations.map((d) => d.name.getText()));
      else if (
        (ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isEnumDeclaration(statement)) &&
        statement.name
      )
        names.push(statement.name.text);
    }
  }
  return names;
}

/** Names web/src must not declare by hand: the document's schemas and what the SDK exports. */
export const SHAPE_NAMES: ReadonlySet<string> = new Set([...schemaNames(), ...sdkExports()]);

/** Local names of the file's imports from the SDK. */
function sdkImports(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const s of source.statements) {
    if (
      !ts.isImportDeclaration(s) ||
      !ts.isStringLiteral(s.moduleSpecifier) ||
      s.moduleSpecifier.text !== SDK
    )
      continue;
    const clause = s.importClause;
    if (clause?.name) names.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
  }
  return names;
}

/** An alias of the SDK's types (`Schema<'TrendItem'>`, `Pick<…>` of one), with no member written out. */
function fromSdk(type: ts.TypeNode, imported: Set<string>): boolean {
  let refersToSdk = false;
  let writtenOut = false;
  const visit = (node: ts.Node): void => {
    if (ts.isTypeLiteralNode(node) || ts.isMappedTypeNode(node)) writtenOut = true;
    if (ts.isTypeReferenceNode(node) || ts.isTypeQueryNode(node)) {
      let root = ts.isTypeReferenceNode(node) ? node.typeName : node.exprName;
      while (ts.isQualifiedName(root)) root = root.left;
      if (imported.has(root.text)) refersToSdk = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(type);
  return refersToSdk && !writtenOut;
}

/**
 * Each interface or type alias in a web/src file named like an API shape and written by hand, as
 * `[line, 'interface TrendItem']`. Nested declarations count too.
 */
export function handWrittenShapes(text: string, file: string): [number, string][] {
  const source = parse(file, text);
  const imported = sdkImports(source);
  const found: [number, string][] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
      SHAPE_NAMES.has(node.name.text) &&
      !(ts.isTypeAliasDeclaration(node) && fromSdk(node.type, imported))
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push([line, `${ts.isInterfaceDeclaration(node) ? 'interface' : 'type'} ${node.name.text}`]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
