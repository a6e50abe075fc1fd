/**
 * Reading the README as a user reads it: its fenced shell blocks, the commands in them with the comments that say
 * what each answers, its inline commands and its links. The walk-through test runs what this finds, so the
 * README's current text is what gets executed.
 */

export interface FencedBlock {
  /** The info string (`sh`, `ts`, ...). */
  lang: string;
  text: string;
  /** The `## ` heading the block is under ('' before the first). */
  heading: string;
}

/** Every fenced block (``` fences) with the heading it is under. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let heading = '';
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (/^```\s*$/.test(line)) {
        blocks.push({ lang: open.lang, text: open.lines.join('\n'), heading });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { lang: line.slice(3).trim(), lines: [] };
    else if (line.startsWith('## ')) heading = line.slice(3).trim();
  }
  if (open) throw new Error('README.md has an unclosed ``` fence');
  return blocks;
}

/** The Markdown outside fenced blocks (prose, tables, inline code). */
export function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
}

/** The inline code spans of `markdown`'s prose. */
export function inlineCode(markdown: string): string[] {
  return [...prose(markdown).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

export interface ShellCommand {
  /** The command as typed (continuation lines joined, the trailing comment removed). */
  command: string;
  /** Its trailing `# comment`, if any. */
  comment: string;
}

/** Where an unquoted ` #` starts a comment in a shell line, or -1. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return i;
  }
  return -1;
}

/** Whether a quote is still open at the end of `text` (a command that goes on over the next lines). */
function quoteOpen(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
  }
  return quote !== undefined;
}

/**
 * The commands of a shell block, one per logical line: a quoted string or a trailing backslash continues a
 * command over the next lines; whole-line comments are not commands (`commentLines` keeps them).
 */
export function shellCommands(block: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let pending: string | undefined;
  for (const line of block.split('\n')) {
    if (pending === undefined && (/^\s*#/.test(line) || line.trim() === '')) continue;
    const text = pending === undefined ? line : `${pending}\n${line}`;
    if (quoteOpen(text) || /\\$/.test(text)) {
      pending = text;
      continue;
    }
    pending = undefined;
    const lastLine = text.slice(text.lastIndexOf('\n') + 1);
    const at = commentStart(lastLine);
    const cut = at < 0 ? text.length : text.length - lastLine.length + at;
    commands.push({ command: text.slice(0, cut).trimEnd(), comment: at < 0 ? '' : lastLine.slice(at + 1).trim() });
  }
  if (pending !== undefined) throw new Error(`a shell command in README.md never ends: ${pending}`);
  return commands;
}

export interface CurlStep {
  /** The step's comment (`1. create an employee resource -> 201, ...`), continuation lines included. */
  description: string;
  /** The status the comment promises (`-> 201`). */
  status: number;
  /** How many curl calls the step makes. */
  calls: number;
}

/**
 * The numbered steps of a curl walk-through: a comment `# N. what -> STATUS ...` (or `# N, M. ...`) opens a
 * step, and the curl commands up to the next one belong to it.
 */
export function curlSteps(block: string): CurlStep[] {
  const steps: CurlStep[] = [];
  for (const line of block.split('\n')) {
    const opened = /^#\s*\d+(?:\s*,\s*\d+)*\.\s*(.*)$/.exec(line);
    if (opened) {
      const status = /->\s*(\d{3})\b/.exec(opened[1]!);
      if (!status) throw new Error(`README curl step without "-> STATUS": ${line}`);
      steps.push({ description: line.replace(/^#\s*/, ''), status: Number(status[1]), calls: 0 });
    } else if (/^#/.test(line) && steps.length > 0) steps.at(-1)!.description += ` ${line.replace(/^#\s*/, '')}`;
    else if (/^\s*curl\s/.test(line)) {
      if (steps.length === 0) throw new Error(`README curl command before the first numbered step: ${line}`);
      steps.at(-1)!.calls++;
    }
  }
  return steps;
}

/** `<placeholder>`s left in a command (what a user would have to replace by hand). */
export function placeholders(command: string): string[] {
  return [...command.matchAll(/<([A-Za-z][\w -]*)>/g)].map((m) => m[0]);
}

/** The `<http://localhost:PORT/...>` links of the README's prose. */
export function localLinks(markdown: string): string[] {
  return [...new Set([...prose(markdown).matchAll(/<(http:\/\/localhost:\d+\/[^>\s]*)>/g)].map((m) => m[1]!))];
}
