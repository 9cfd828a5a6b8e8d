// The YAML compose.yaml is written in, read without a YAML library (none is a dependency): block mappings and
// sequences by indentation, plain, quoted and JSON-style flow values, full-line and trailing comments. No
// anchors, multi-line strings or flow mappings: compose.yaml keeps to this, and anything else throws.

export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  number: number;
}

function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || text[i - 1] === ' ')) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function scalar(raw: string, line: Line): YamlValue {
  const text = raw.trim();
  if (text === '' || text === '~' || text === 'null') return null;
  if (text.startsWith('[')) return JSON.parse(text) as YamlValue[];
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'")) return text.slice(1, -1).replaceAll("''", "'");
  if (/^[&*!|>{]/.test(text)) throw new Error(`line ${line.number}: unsupported YAML: ${text}`);
  return text;
}

function block(lines: Line[], start: number, indent: number): [YamlValue, number] {
  const first = lines[start]!;
  if (first.text.startsWith('- ')) {
    const items: YamlValue[] = [];
    let i = start;
    while (i < lines.length && lines[i]!.indent === indent && lines[i]!.text.startsWith('- ')) {
      const item = lines[i]!.text.slice(2);
      if (/^[^"'[].*:(\s|$)/.test(item)) throw new Error(`line ${lines[i]!.number}: mappings in a sequence`);
      items.push(scalar(item, lines[i]!));
      i++;
    }
    return [items, i];
  }
  const map: Record<string, YamlValue> = {};
  let i = start;
  while (i < lines.length && lines[i]!.indent === indent) {
    const line = lines[i]!;
    const match = /^([^\s:][^:]*?):(?:\s+(.*))?$/.exec(line.text);
    if (!match) throw new Error(`line ${line.number}: expected "key: value", got: ${line.text}`);
    const key = scalar(match[1]!, line) as string;
    i++;
    if (match[2] !== undefined && match[2] !== '') map[key] = scalar(match[2], line);
    else if (i < lines.length && lines[i]!.indent > indent) [map[key], i] = block(lines, i, lines[i]!.indent);
    else map[key] = null;
  }
  if (i < lines.length && lines[i]!.indent > indent) {
    throw new Error(`line ${lines[i]!.number}: unexpected indentation`);
  }
  return [map, i];
}

export function parseYamlSubset(source: string): YamlValue {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, index) => {
    const text = stripComment(raw);
    if (text.trim() === '') return;
    if (raw.includes('\t')) throw new Error(`line ${index + 1}: tabs are not YAML indentation`);
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), number: index + 1 });
  });
  if (lines.length === 0) return null;
  const [value, end] = block(lines, 0, lines[0]!.indent);
  if (end !== lines.length) throw new Error(`line ${lines[end]!.number}: unexpected indentation`);
  return value;
}
