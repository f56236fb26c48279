// The house's import graph, checked by `npm run lint`: no import circle anywhere in main/, shared/, renderer/ and
// preload/ (type-only and dynamic imports count: a circle of types still ties the files into one room), and no
// file of main/ but tests longer than the limit. ESLint's import-x/no-cycle says the same for value imports in the
// editor; this check also sees the type-only circles it passes over.
//
//   node --import tsx scripts/import-circles.ts        prints each circle and each long file; exits 1 if any

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The folders whose files may not import each other in a circle. */
export const checkedFolders = ['main', 'shared', 'renderer/src', 'preload'];
/** The longest a file of main/ may be, tests aside. */
export const mainLineLimit = 450;

const sourceFile = /\.(ts|tsx|mts|cts)$/;
const skippedFolders = new Set(['node_modules', 'dist', '__fixtures__']);

/** Every TypeScript file below `folder`, as a path relative to `root`. */
export function sourceFiles(root: string, folder: string): string[] {
  const start = path.join(root, folder);
  if (!statSync(start, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(start, { recursive: true, encoding: 'utf8' })
    .filter((name) => sourceFile.test(name) && !name.endsWith('.d.ts'))
    .filter((name) => !name.split(path.sep).some((part) => skippedFolders.has(part)))
    .map((name) => path.join(folder, name).split(path.sep).join('/'))
    .sort();
}

/** The files of the set that `file` imports (static, type-only, re-exports and dynamic `import()` alike). */
export function importsOf(root: string, file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
  const targets = new Set<string>();
  for (const { fileName: specifier } of importedFiles) {
    if (!specifier.startsWith('.')) continue;
    const target = resolve(path.posix.join(path.posix.dirname(file), specifier), known);
    if (target !== undefined && target !== file) targets.add(target);
  }
  return [...targets].sort();
}

/** A relative specifier as the compiler resolves it: `x.js` is `x.ts`/`x.tsx`, a folder is its index. */
function resolve(specifier: string, known: ReadonlySet<string>): string | undefined {
  const bare = specifier.replace(/\.(js|jsx|mjs|cjs)$/, '');
  const candidates = [
    specifier,
    ...['.ts', '.tsx', '.mts', '.cts'].flatMap((ext) => [bare + ext, `${bare}/index${ext}`]),
  ];
  return candidates.find((candidate) => known.has(candidate));
}

/**
 * The circles of a graph: each strongly connected set of two or more files (Tarjan's algorithm, iterative so a
 * deep import chain cannot overflow the stack), its files sorted, the circles sorted by their first file.
 */
export function findCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }];
    index.set(start, counter);
    lowest.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = graph.get(frame.file) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          lowest.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          lowest.set(frame.file, Math.min(lowest.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) lowest.set(parent.file, Math.min(lowest.get(parent.file)!, lowest.get(frame.file)!));
      if (lowest.get(frame.file) !== index.get(frame.file)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.file);
      if (members.length > 1) circles.push(members.sort());
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

export interface HouseReport {
  circles: string[][];
  /** Files of main/ (tests aside) over the line limit, with their length. */
  longFiles: { file: string; lines: number }[];
}

export function checkHouse(root: string): HouseReport {
  const files = checkedFolders.flatMap((folder) => sourceFiles(root, folder));
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(root, file, known)]));
  const longFiles = files
    .filter((file) => file.startsWith('main/') && !/\.test\.tsx?$/.test(file))
    .map((file) => ({ file, lines: readFileSync(path.join(root, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > mainLineLimit);
  return { circles: findCircles(graph), longFiles };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { circles, longFiles } = checkHouse(root);
  for (const circle of circles) console.error(`import circle among ${circle.length} files: ${circle.join(', ')}`);
  for (const { file, lines } of longFiles)
    console.error(`${file}: ${lines} lines (main/ files stay within ${mainLineLimit})`);
  if (circles.length + longFiles.length > 0) process.exit(1);
}
