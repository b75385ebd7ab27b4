// The repo's import graph, read with the TypeScript compiler's parser (no type checking, so it is fast and
// sees exactly what the source says). Every way one of our files can pull in another counts, including the
// type-only ones: a type-only cycle still ties two folders together.
import path from 'node:path';
import ts from 'typescript';

export type ImportKind = 'static' | 'type' | 'dynamic' | 'require' | 'vi.mock';

export interface ImportRef {
  specifier: string;
  kind: ImportKind;
  line: number;
}

export interface Edge {
  from: string; // repo-relative, '/'-separated
  /** A repo file for a relative specifier; the bare specifier itself for a package ('electron', 'node:fs'). */
  to: string;
  kind: ImportKind;
  line: number;
  external: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: Edge[];
  /** Relative specifiers that match no file: the checker reports them, so a resolver gap cannot hide an arrow. */
  unresolved: Edge[];
}

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.mjs', '.cjs', '.js'] as const;
// Non-code files a module may import through the bundler (styles, data); they are targets, never sources.
const ASSET_EXTENSION = /\.(css|json|html|svg|png|txt|md)$/;
// vitest calls whose first argument is a module specifier: mocking or re-importing a module depends on it.
const VI_MODULE_CALLS = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);

const scriptKind = (file: string): ts.ScriptKind =>
  file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.(mjs|cjs|js)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;

const stringArgument = (call: ts.CallExpression): string | undefined => {
  const first = call.arguments[0];
  return first && ts.isStringLiteralLike(first) ? first.text : undefined;
};

/** Every module specifier `text` refers to, with how it is used. */
export function importsOf(file: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(file));
  const found: ImportRef[] = [];
  const add = (node: ts.Node, specifier: string, kind: ImportKind) =>
    found.push({ specifier, kind, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });

  const inspect = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, isTypeOnlyImport(node) ? 'type' : 'static');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) add(node, expression.text, node.isTypeOnly ? 'type' : 'require');
    } else if (ts.isImportTypeNode(node)) {
      // `import('./x').Thing` in a type position.
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) add(node, argument.literal.text, 'type');
    } else if (ts.isCallExpression(node)) {
      const specifier = stringArgument(node);
      const callee = node.expression;
      if (specifier !== undefined) {
        if (callee.kind === ts.SyntaxKind.ImportKeyword) add(node, specifier, 'dynamic');
        else if (ts.isIdentifier(callee) && callee.text === 'require') add(node, specifier, 'require');
        else if (
          ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'vi' &&
          VI_MODULE_CALLS.has(callee.name.text)
        )
          add(node, specifier, 'vi.mock');
      }
    }
  };
  const visit = (node: ts.Node): void => {
    inspect(node);
    ts.forEachChild(node, visit);
  };
  // Only import and export declarations sit at the top level; the calls and `import('…')` types can be anywhere,
  // so the whole tree is walked only where the text can hold one (most files are walked at the top level only).
  if (/\bimport\s*\(|\brequire\s*\(|\bvi\s*\.|\bimport\s*\w+\s*=/.test(text)) visit(source);
  else for (const statement of source.statements) inspect(statement);
  return found;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './side-effect'`
  if (clause.isTypeOnly) return true;
  // `import { type A, type B } from …` is erased entirely, like `import type`.
  const bindings = clause.namedBindings;
  return !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/**
 * The repo file a relative specifier names, the way the bundler and tsx resolve it: the exact file, the file
 * with a source extension, a `.js` written for a `.ts`, or a folder's index. Undefined when nothing matches.
 */
export function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const bare = specifier.replace(/[?#].*$/, ''); // vite's `?raw`, `?url`…
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), bare));
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => base + ext),
    ...(/\.(m|c)?js$/.test(base) ? ['.ts', '.tsx', '.mts', '.cts'].map((ext) => base.replace(/\.(m|c)?js$/, ext)) : []),
    ...SOURCE_EXTENSIONS.map((ext) => `${base}/index${ext}`),
  ];
  const hit = candidates.find((candidate) => files.has(candidate));
  if (hit) return hit;
  return ASSET_EXTENSION.test(base) ? base : undefined;
}

// Declaration files count too: a `.d.ts` can import types (or electron's) like any other file.
export const isSourceFile = (file: string): boolean => SOURCE_EXTENSIONS.some((ext) => file.endsWith(ext));

/** The graph over `sources` (repo-relative path → text). Packages stay as their bare specifier. */
export function buildImportGraph(sources: ReadonlyMap<string, string>): ImportGraph {
  const files = [...sources.keys()].sort();
  const fileSet = new Set(files);
  const edges: Edge[] = [];
  const unresolved: Edge[] = [];
  for (const from of files) {
    for (const ref of importsOf(from, sources.get(from) ?? '')) {
      if (ref.specifier.startsWith('/')) {
        unresolved.push({ from, to: ref.specifier, kind: ref.kind, line: ref.line, external: false }); // absolute: machine-specific
        continue;
      }
      if (!ref.specifier.startsWith('.')) {
        edges.push({ from, to: ref.specifier, kind: ref.kind, line: ref.line, external: true });
        continue;
      }
      const to = resolveRelative(from, ref.specifier, fileSet);
      if (to === undefined) unresolved.push({ from, to: ref.specifier, kind: ref.kind, line: ref.line, external: false });
      else edges.push({ from, to, kind: ref.kind, line: ref.line, external: false });
    }
  }
  return { files, edges, unresolved };
}
