// Literal data in TypeScript: the lines scripts/lint-structure.ts counts for the "data as data" rule.
import ts from 'typescript';

const LITERALS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);
const PUNCTUATION = new Set([
  ts.SyntaxKind.OpenBracketToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.OpenBraceToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.OpenParenToken,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CommaToken,
  ts.SyntaxKind.ColonToken,
  ts.SyntaxKind.PlusToken,
  ts.SyntaxKind.MinusToken,
]);
const TRIVIA = new Set([
  ts.SyntaxKind.WhitespaceTrivia,
  ts.SyntaxKind.NewLineTrivia,
  ts.SyntaxKind.SingleLineCommentTrivia,
  ts.SyntaxKind.MultiLineCommentTrivia,
  ts.SyntaxKind.ShebangTrivia,
  ts.SyntaxKind.ConflictMarkerTrivia,
]);
/** Tokens after which a `/` starts a regular expression rather than a division. */
const BEFORE_DIVISION = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.ThisKeyword,
]);

/**
 * Lines of a TypeScript text that hold literal data only: strings, numbers, true/false/null, object keys and the
 * brackets and commas between them, or the inside of a string spanning lines. Lines with code or blank are not.
 */
export function literalDataLines(text: string): number {
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (pos: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const code = new Uint8Array(lineStarts.length); // 1: a non-data token on the line
  const data = new Uint8Array(lineStarts.length); // 1: a literal on the line
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const templateDepth: number[] = []; // brace depth at each open `${`
  let braces = 0;
  let previous = ts.SyntaxKind.Unknown;
  const tokens: { kind: ts.SyntaxKind; start: number; end: number }[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (TRIVIA.has(kind)) continue;
    if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      if (!BEFORE_DIVISION.has(previous)) kind = scanner.reScanSlashToken();
    }
    if (kind === ts.SyntaxKind.TemplateHead) templateDepth.push(braces);
    else if (kind === ts.SyntaxKind.OpenBraceToken) braces++;
    else if (kind === ts.SyntaxKind.CloseBraceToken) {
      if (templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braces) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templateDepth.pop();
      } else braces--;
    }
    tokens.push({ kind, start: scanner.getTokenStart(), end: scanner.getTokenEnd() });
    previous = kind;
  }
  const isDataToken = (kind: ts.SyntaxKind) => LITERALS.has(kind) || PUNCTUATION.has(kind);
  /** `name(literal, …)`: a call whose arguments are all literals is a data entry (`post('negative', '…')`). */
  const literalCall = (i: number) => {
    if (tokens[i + 1]?.kind !== ts.SyntaxKind.OpenParenToken) return false;
    let depth = 0;
    for (let j = i + 1; j < tokens.length; j++) {
      const kind = tokens[j]!.kind;
      if (kind === ts.SyntaxKind.OpenParenToken) depth++;
      else if (kind === ts.SyntaxKind.CloseParenToken && --depth === 0) return true;
      else if (!isDataToken(kind)) return false;
    }
    return false;
  };
  tokens.forEach((token, i) => {
    const first = lineOf(token.start);
    const last = lineOf(Math.max(token.start, token.end - 1));
    const key =
      token.kind === ts.SyntaxKind.Identifier &&
      (tokens[i + 1]?.kind === ts.SyntaxKind.ColonToken || literalCall(i));
    if (LITERALS.has(token.kind)) {
      for (let line = first; line <= last; line++) data[line] = 1;
    } else if (!PUNCTUATION.has(token.kind) && !key) {
      code[first] = 1;
      code[last] = 1;
    }
  });
  let count = 0;
  for (let line = 0; line < lineStarts.length; line++) if (data[line] && !code[line]) count++;
  return count;
}
