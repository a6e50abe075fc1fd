import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { pathToString, type PathSegment, type Problem } from './problems.ts';

/**
 * A parsed JSON or YAML text that maps JSON paths back to lines and columns. JSON goes through `JSON.parse`
 * (the data) and the `yaml` parser (the positions: YAML's flow syntax reads JSON); syntax errors become error
 * problems with the position of the first offending character.
 */
export interface ParsedSource {
  /** The data, or `undefined` when the text does not parse. */
  data: unknown;
  /** Syntax errors (and YAML warnings, duplicate keys) found while parsing. */
  problems: Problem[];
  /** Line and column (1-based, in the whole file) of the value at `path`: a property's key, an array item's start. */
  locate(path: readonly PathSegment[]): { line: number; column: number };
  /** Whether `path` names something present in the text (a key, an item). */
  has(path: readonly PathSegment[]): boolean;
}

export interface ParseOptions {
  /** The file name reported in problems. */
  file: string;
  format: 'json' | 'yaml';
  /** Added to every line (frontmatter starts below the MDX file's first `---`). */
  lineOffset?: number;
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

export function parseSource(text: string, options: ParseOptions): ParsedSource {
  const { file, format, lineOffset = 0 } = options;
  const source = text.replace(/^\uFEFF/, '');
  const problems: Problem[] = [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: true });
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: line + lineOffset, column: col };
  };
  const problem = (severity: Problem['severity'], at: { line: number; column: number }, message: string): Problem => ({ severity, file, ...at, path: '', message });

  let data: unknown;
  if (format === 'json') {
    try {
      data = JSON.parse(source);
    } catch (err) {
      const found = jsonSyntaxError(source);
      const at = found ? lineColumn(source, found.offset) : { line: 1, column: 1 };
      const message = found?.message ?? (err as Error).message;
      problems.push(problem('error', { line: at.line + lineOffset, column: at.column }, `Invalid JSON: ${message}`));
    }
  } else if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const at = error.linePos?.[0] ?? { line: 1, col: 1 };
      problems.push(problem('error', { line: at.line + lineOffset, column: at.col }, `Invalid YAML: ${yamlMessage(error.message)}`));
    }
  } else {
    data = doc.toJS({ maxAliasCount: 100 });
    for (const warning of doc.warnings) {
      const at = warning.linePos?.[0] ?? { line: 1, col: 1 };
      problems.push(problem('warning', { line: at.line + lineOffset, column: at.col }, yamlMessage(warning.message)));
    }
  }
  if (data !== undefined) {
    for (const { path, offset, key } of duplicateKeys(doc)) {
      problems.push({ ...problem('warning', position(offset), `Duplicate key \`${key}\`: the last one is used`), path: pathToString([...path, key]) });
    }
  }

  // Each mapping's pairs by key (the last one of a key, as the data keeps it), made when first walked through: a
  // search of its items per lookup made locating every problem of 40,000 redirects quadratic (seconds to minutes).
  const pairsByKey = new WeakMap<YAMLMap, Map<string, Pair>>();
  const pairOf = (map: YAMLMap, segment: PathSegment) => {
    let pairs = pairsByKey.get(map);
    if (!pairs) {
      pairs = new Map();
      for (const pair of map.items as Pair[]) if (isScalar(pair.key)) pairs.set(String(pair.key.value), pair);
      pairsByKey.set(map, pairs);
    }
    return pairs.get(String(segment));
  };
  const walk = (path: readonly PathSegment[]) => {
    let node: unknown = doc.contents;
    let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
    let depth = 0;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = pairOf(node, segment);
        if (!pair) break;
        offset = (pair.key as Node).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
        node = node.items[segment];
        offset = (node as Node | null)?.range?.[0] ?? offset;
      } else break;
      depth++;
    }
    return { offset, found: depth === path.length };
  };

  return {
    data,
    problems,
    locate: (path) => position(walk(path).offset),
    has: (path) => walk(path).found,
  };
}

/** Keys that appear more than once in a mapping (JSON.parse and YAML's toJS both keep the last). */
function duplicateKeys(doc: Document.Parsed): { path: PathSegment[]; key: string; offset: number }[] {
  const found: { path: PathSegment[]; key: string; offset: number }[] = [];
  const visit = (node: unknown, path: PathSegment[]) => {
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const earlier = seen.get(key);
        if (earlier !== undefined) found.push({ path, key, offset: earlier });
        seen.set(key, pair.key.range?.[0] ?? 0);
        visit(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => visit(item, [...path, i]));
  };
  visit(doc.contents, []);
  return found;
}

/** `Implicit keys need to be on a single line at line 2, column 8:\n\n...` -> `Implicit keys need to be on a single line`. */
const yamlMessage = (message: string) => (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');

/** The first syntax error of a text JSON.parse rejected: where, and a plain message. */
export function jsonSyntaxError(text: string): { offset: number; message: string } | null {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw Object.assign(new Error(message), { offset: at });
  };
  const eof = () => i >= text.length;
  const here = () => (eof() ? 'the end of the file' : `\`${text[i]}\``);
  const ws = () => {
    while (!eof() && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    const start = i++;
    while (!eof()) {
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === '\n' || c === '\r') fail('Unterminated string', start);
      if (c < ' ') fail('Control characters must be escaped in strings');
      if (c === '\\') {
        const e = text[i + 1] ?? '';
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\u escape: four hex digits expected');
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e) || e === '') fail(`Invalid escape \`\\${e}\``);
        i += 2;
        continue;
      }
      i++;
    }
    fail('Unterminated string', start);
  };
  const literal = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      let comma = -1;
      for (;;) {
        ws();
        if (text[i] === '}' && comma >= 0) fail('Trailing comma before `}`', comma);
        if (text[i] !== '"') fail(`Expected a property name in double quotes, found ${here()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`Expected \`:\` after the property name, found ${here()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          comma = i++;
          continue;
        }
        if (text[i] === '}') return void i++;
        fail(`Expected \`,\` or \`}\` after the property value, found ${here()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      let comma = -1;
      for (;;) {
        ws();
        if (text[i] === ']' && comma >= 0) fail('Trailing comma before `]`', comma);
        value();
        ws();
        if (text[i] === ',') {
          comma = i++;
          continue;
        }
        if (text[i] === ']') return void i++;
        fail(`Expected \`,\` or \`]\` after the array item, found ${here()}`);
      }
    }
    if (c === '"') return string();
    if (literal(/-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])/y)) return;
    if (literal(/(?:true|false|null)(?!\w)/y)) return;
    const word = /[\w.+-]+/y;
    word.lastIndex = i;
    const m = word.exec(text);
    fail(m ? `Invalid value \`${m[0]}\`` : `Unexpected ${here()}`);
  };
  try {
    value();
    ws();
    if (!eof()) fail(`Unexpected ${here()} after the end of the JSON value`);
    return null;
  } catch (err) {
    const { offset, message } = err as Error & { offset: number };
    return { offset, message };
  }
}
