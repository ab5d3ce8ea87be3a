// Print the cross-file edges of a TypeScript/JavaScript tree as the
// TypeScript compiler resolves them.
//
// Usage: node ts_edges.js ROOT
//
// with the typescript package (5.x, the compiler API) where Node finds
// it, e.g. NODE_PATH=/tmp/tsoracle/node_modules. It builds one program
// over the tree's .ts, .tsx, .mts, .cts, .js, .jsx, .mjs and .cjs files
// (JavaScript allowed, not checked; node_modules and hidden directories
// left out; every file a module, as Node and bundlers load them; a
// declaration file beside the JavaScript it types hidden, so that a use
// means the code) and, for every identifier, takes the symbol the
// checker gives it, through imports to what they import. Each declaration of
// that symbol in another file of the tree gives a line
//
//	file<TAB>line<TAB>name<TAB>defining file
//
// with slash paths relative to ROOT, the identifier's 1-based line and
// the declared name. Each file of the program comes first on a line of
// its own.
'use strict';

const fs = require('fs');
const path = require('path');
const ts = require('typescript');

const exts = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);

// typedJS reports whether p is a declaration file (a.d.ts, a.d.cts,
// a.d.mts) with JavaScript of its stem beside it.
function typedJS(p) {
	const m = /^(.*)\.d\.[cm]?ts$/.exec(p);
	return m !== null && ['.js', '.cjs', '.mjs'].some((e) => fs.existsSync(m[1] + e));
}

function sourceFiles(root) {
	const out = [];
	const walk = (dir) => {
		for (const e of fs.readdirSync(dir, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
			if (e.name.startsWith('.') || e.name === 'node_modules') {
				continue;
			}
			const p = path.join(dir, e.name);
			if (e.isDirectory()) {
				walk(p);
			} else if (e.isFile() && exts.has(path.extname(e.name))) {
				out.push(p);
			}
		}
	};
	walk(root);
	return out;
}

// declName returns the name a declaration declares, or '' when it has
// none (an object literal, a default export of an expression).
function declName(d) {
	const n = ts.getNameOfDeclaration(d);
	if (n && (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n))) {
		return n.text;
	}
	return '';
}

function main() {
	if (process.argv.length !== 3) {
		process.stderr.write('usage: node ts_edges.js ROOT\n');
		process.exit(2);
	}
	const root = fs.realpathSync(process.argv[2]);
	const files = sourceFiles(root).filter((p) => !typedJS(p));
	const inTree = new Set(files);
	const options = {
		allowJs: true,
		checkJs: false,
		noEmit: true,
		jsx: ts.JsxEmit.Preserve,
		target: ts.ScriptTarget.ESNext,
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		resolveJsonModule: true,
		skipLibCheck: true,
		types: [],
		moduleDetection: ts.ModuleDetectionKind.Force,
	};
	const host = ts.createCompilerHost(options);
	const exists = host.fileExists;
	host.fileExists = (p) => exists.call(host, p) && !typedJS(path.resolve(p));
	const program = ts.createProgram(files, options, host);
	const checker = program.getTypeChecker();
	const rel = (p) => path.relative(root, p).split(path.sep).join('/');
	const rows = files.map(rel);
	// targets returns the declarations a symbol stands for: through
	// imports and re-exports, through "export default x" to x, and from
	// a property set to a name ("a.f = f", "{f}", "{f: g}") to it too.
	const targets = (sym, depth) => {
		if (!sym || depth > 8) {
			return [];
		}
		if (sym.flags & ts.SymbolFlags.Alias) {
			try {
				sym = checker.getAliasedSymbol(sym);
			} catch {
				return [];
			}
		}
		const out = [];
		for (const d of sym.declarations || []) {
			if (ts.isExportAssignment(d) && ts.isIdentifier(d.expression)) {
				out.push(...targets(checker.getSymbolAtLocation(d.expression), depth + 1));
				continue;
			}
			out.push(d);
			let value;
			if (ts.isShorthandPropertyAssignment(d)) {
				value = checker.getShorthandAssignmentValueSymbol(d);
			} else if (ts.isPropertyAssignment(d) && ts.isIdentifier(d.initializer)) {
				value = checker.getSymbolAtLocation(d.initializer);
			} else {
				const set = ts.isBinaryExpression(d) ? d : d.parent;
				if (set && ts.isBinaryExpression(set) && set.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(set.right)) {
					value = checker.getSymbolAtLocation(set.right);
				}
			}
			if (value && value !== sym) {
				out.push(...targets(value, depth + 1));
			}
		}
		return out;
	};
	for (const sf of program.getSourceFiles()) {
		const from = path.resolve(sf.fileName);
		if (!inTree.has(from)) {
			continue;
		}
		const seen = new Set();
		const visit = (node) => {
			if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
				let sym;
				try {
					sym = checker.getSymbolAtLocation(node);
				} catch {
					sym = undefined;
				}
				for (const d of targets(sym, 0)) {
					const to = path.resolve(d.getSourceFile().fileName);
					const name = declName(d);
					if (to === from || !inTree.has(to) || name === '') {
						continue;
					}
					const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
					const row = `${rel(from)}\t${line}\t${name}\t${rel(to)}`;
					if (!seen.has(row)) {
						seen.add(row);
						rows.push(row);
					}
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	process.stdout.write(rows.map((r) => r + '\n').join(''));
}

main();
