// Answer, for names used in a TypeScript/JavaScript tree, where the
// TypeScript checker says they are declared.
//
// Usage: node ts_oracle.js ROOT
//
// with the typescript package (5.x, which has the compiler API) where
// Node finds it (NODE_PATH). Reads requests from stdin, one a line,
//
//	file<TAB>line<TAB>name
//
// (file a slash path under ROOT, line 1-based) and answers each, in
// order, with one line on stdout:
//
//	file<TAB>line<TAB>name[<TAB>declaring file<TAB>declared name]...
//
// It builds one program over the tree's .ts, .tsx, .mts, .cts, .js, .jsx,
// .mjs and .cjs files (JavaScript allowed, not checked; node_modules and
// hidden directories left out; every file a module; a declaration file
// beside the JavaScript it types hidden, so that a use means the code)
// and asks the checker for the symbol of each identifier of the name on
// the line, then follows it through imports and re-exports, through
// `export default x` to x, and from a property set to a name (`a.f = f`,
// `{f}`, `{f: g}`) to that name's declaration too.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');
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
		for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
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
	return out.sort();
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
		process.stderr.write('usage: node ts_oracle.js ROOT\n');
		process.exit(2);
	}
	const root = fs.realpathSync(process.argv[2]);
	const files = sourceFiles(root).filter((p) => !typedJS(p));
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
	const inTree = new Map(files.map((p) => [p, rel(p)]));
	const bySlash = new Map();
	for (const sf of program.getSourceFiles()) {
		const r = inTree.get(path.resolve(sf.fileName));
		if (r !== undefined) {
			bySlash.set(r, sf);
		}
	}

	// targets returns the declarations a symbol stands for.
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

	// The identifiers of each file, by "line<TAB>name" (1-based line),
	// indexed when the file is first asked about.
	const idents = new Map();
	const identsOf = (r) => {
		if (idents.has(r)) {
			return idents.get(r);
		}
		const byLine = new Map();
		const sf = bySlash.get(r);
		const visit = (node) => {
			if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
				const key = `${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}\t${node.text}`;
				if (!byLine.has(key)) {
					byLine.set(key, []);
				}
				byLine.get(key).push(node);
			}
			ts.forEachChild(node, visit);
		};
		if (sf) {
			visit(sf);
		}
		idents.set(r, byLine);
		return byLine;
	};

	const answer = (from, line, name) => {
		const out = [];
		const from_ = bySlash.get(from);
		for (const node of identsOf(from).get(`${line}\t${name}`) || []) {
			let sym;
			try {
				sym = checker.getSymbolAtLocation(node);
			} catch {
				sym = undefined;
			}
			for (const d of targets(sym, 0)) {
				const sf = d.getSourceFile();
				const to = inTree.get(path.resolve(sf.fileName));
				const dn = declName(d);
				if (to === undefined || sf === from_ || dn === '') {
					continue;
				}
				const pair = `${to}\t${dn}`;
				if (!out.includes(pair)) {
					out.push(pair);
				}
			}
		}
		return out;
	};

	const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
	const lines = [];
	rl.on('line', (row) => {
		const f = row.split('\t');
		if (f.length !== 3 || !/^[0-9]+$/.test(f[1])) {
			process.stderr.write(`bad request ${JSON.stringify(row)}: want file<TAB>line<TAB>name\n`);
			process.exit(2);
		}
		lines.push([f[0], f[1], f[2], ...answer(f[0], Number(f[1]), f[2])].join('\t') + '\n');
		if (lines.length >= 256) {
			process.stdout.write(lines.join(''));
			lines.length = 0;
		}
	});
	rl.on('close', () => process.stdout.write(lines.join('')));
}

main();
