/**
 * The operations of the platform's official API description, read from the installed
 * `discord-api-spec` package itself: its `Paths` type (`build/discord-api-spec.ts`) names, for
 * each path template and method, the response type of each status, and its zod build exports a
 * schema for every named type (`UserResponse` → `UserResponseSchema`). Nothing here writes a
 * shape by hand: the table is parsed from the package's text and the schemas are the package's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as official from 'discord-api-spec/zod';
import * as z from 'zod/mini';

/** An HTTP method as the description writes it. */
export type OfficialMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** One operation of the description: its path template, method and the response type per status. */
export interface OfficialOperation {
  /** The path template, `/lobbies/{lobby_id}`. */
  template: string;
  method: OfficialMethod;
  /** The response's type expression by status (`"200"`, `"201"`, `"204"`, `"429"`, `"4XX"`). */
  responses: Readonly<Record<string, string>>;
}

/**
 * The installed package's folder. Its `exports` name neither `package.json` nor a `require`
 * condition, so it is found as Node finds packages: the project's `node_modules` (tests run from
 * the project's root).
 */
const PACKAGE_ROOT = join(process.cwd(), 'node_modules', 'discord-api-spec');

/** The installed description's `.ts` build (the package's `types` entry). */
function descriptionText(): string {
  return readFileSync(join(PACKAGE_ROOT, 'build', 'discord-api-spec.ts'), 'utf8');
}

/** The installed description's version, for the pages that quote it. */
export function officialVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** True once the brackets of `text` are balanced and it ends its statement with `;`. */
const statementEnds = (text: string) => {
  let depth = 0;
  for (const ch of text) {
    if ('{(['.includes(ch)) depth++;
    else if ('})]'.includes(ch)) depth--;
  }
  return depth === 0 && text.trimEnd().endsWith(';');
};

/**
 * Every operation of the `Paths` interface, in the description's order. The interface is
 * generated with a fixed layout (two spaces per level): a path at level 1, a method at level 2,
 * `responses` at level 3 and one status per entry at level 4, a type spanning lines until its `;`.
 */
export function readOfficialOperations(text = descriptionText()): OfficialOperation[] {
  const start = text.indexOf('export interface Paths {');
  if (start < 0) throw new Error('discord-api-spec: no `Paths` interface in its .ts build');
  const lines = text.slice(start).split('\n');
  const operations: OfficialOperation[] = [];
  let template = '';
  let current: { method: OfficialMethod; responses: Record<string, string> } | undefined;
  let inResponses = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === '}') break;
    const path = /^ {2}"(\/[^"]*)": \{$/.exec(line);
    if (path) {
      template = path[1];
      continue;
    }
    const method = /^ {4}(get|put|post|delete|patch): \{$/.exec(line);
    if (method) {
      current = { method: method[1] as OfficialMethod, responses: {} };
      operations.push({ template, method: current.method, responses: current.responses });
      inResponses = false;
      continue;
    }
    if (/^ {6}responses: \{$/.test(line)) {
      inResponses = true;
      continue;
    }
    if (/^ {6}\};?$/.test(line)) inResponses = false;
    const status = inResponses ? /^ {8}"(\d{3}|\dXX)":(.*)$/.exec(line) : null;
    if (status && current) {
      let type = status[2];
      while (!statementEnds(type)) type += ` ${lines[++i].trim()}`;
      current.responses[status[1]] = type.trim().replace(/;$/, '');
    }
  }
  return operations;
}

/** The schemas of the zod build, by exported name. */
const SCHEMAS = official as unknown as Record<string, z.ZodMiniType | undefined>;

/** Built-in type names of the description. */
const BUILT_IN: Record<string, () => z.ZodMiniType> = {
  null: () => z.null(),
  string: () => z.string(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  unknown: () => z.unknown(),
};

/**
 * The zod schema of a response type expression of the `Paths` table: named types
 * (`MessageResponse`), `null`, `string`, unions, arrays (`X[]`, `(A | B)[]`) and the one inline
 * form the table uses, an index signature (`{ [key: string]: number; }`).
 */
export function schemaOfType(expression: string): z.ZodMiniType {
  const tokens = expression.match(/[A-Za-z_][A-Za-z0-9_]*|[|()[\]{}:;]/g) ?? [];
  let at = 0;
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (expected !== undefined && token !== expected)
      throw new Error(`response type \`${expression}\`: expected ${expected}, found ${token}`);
    return token;
  };
  const union = (): z.ZodMiniType => {
    if (tokens[at] === '|') at++;
    const members = [postfix()];
    while (tokens[at] === '|') {
      at++;
      members.push(postfix());
    }
    return members.length === 1 ? members[0] : z.union(members);
  };
  const postfix = (): z.ZodMiniType => {
    let schema = primary();
    while (tokens[at] === '[' && tokens[at + 1] === ']') {
      at += 2;
      schema = z.array(schema);
    }
    return schema;
  };
  const primary = (): z.ZodMiniType => {
    const token = take();
    if (token === '(') {
      const inner = union();
      take(')');
      return inner;
    }
    if (token === '{') {
      take('[');
      take();
      take(':');
      take('string');
      take(']');
      take(':');
      const value = union();
      if (tokens[at] === ';') at++;
      take('}');
      return z.record(z.string(), value);
    }
    const builtIn = BUILT_IN[token];
    if (builtIn) return builtIn();
    const named = SCHEMAS[`${token}Schema`];
    if (!named) throw new Error(`response type \`${expression}\`: the zod build has no ${token}Schema`);
    return named;
  };
  const schema = union();
  if (at !== tokens.length) throw new Error(`response type \`${expression}\`: unread ${tokens.slice(at).join(' ')}`);
  return schema;
}
