/**
 * Finds module-level mutable state in node code. n8n runs a node's module once per process,
 * and in queue mode an execution, its retry and the next execution may each run in a
 * different process: whatever a module remembers between calls is lost, or leaks between
 * workflows. State belongs in n8n's execution context, static data or the node's parameters.
 */
import * as ts from 'typescript';

export interface StateFinding {
	file: string;
	line: number;
	what: string;
}

const MUTATING_METHODS = new Set([
	'push',
	'pop',
	'shift',
	'unshift',
	'splice',
	'sort',
	'reverse',
	'fill',
	'copyWithin',
	'set',
	'add',
	'delete',
	'clear',
]);
const MUTABLE_CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Object']);
const ASSIGNMENTS = new Set([
	ts.SyntaxKind.EqualsToken,
	ts.SyntaxKind.PlusEqualsToken,
	ts.SyntaxKind.MinusEqualsToken,
	ts.SyntaxKind.AsteriskEqualsToken,
	ts.SyntaxKind.SlashEqualsToken,
	ts.SyntaxKind.PercentEqualsToken,
	ts.SyntaxKind.AmpersandAmpersandEqualsToken,
	ts.SyntaxKind.BarBarEqualsToken,
	ts.SyntaxKind.QuestionQuestionEqualsToken,
	ts.SyntaxKind.BarEqualsToken,
	ts.SyntaxKind.AmpersandEqualsToken,
]);

/** The identifier an access chain starts from: `a` of `a.b[c].d`. */
function rootOf(node: ts.Expression): ts.Identifier | undefined {
	let current: ts.Expression = node;
	for (;;) {
		if (ts.isIdentifier(current)) return current;
		if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)) current = current.expression;
		else if (ts.isParenthesizedExpression(current) || ts.isNonNullExpression(current)) current = current.expression;
		else if (ts.isAsExpression(current) || ts.isTypeAssertionExpression(current)) current = current.expression;
		else return undefined;
	}
}

/** Declared at the top of a module (a variable or an import): shared by every execution of the process. */
function isModuleLevel(declaration: ts.Declaration): boolean {
	// Globals of the runtime (lib.d.ts) are declared at a file's top too, but are not ours.
	if (declaration.getSourceFile().isDeclarationFile) return false;
	if (ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration))
		return true;
	let node: ts.Node = declaration;
	while (ts.isBindingElement(node) || ts.isObjectBindingPattern(node) || ts.isArrayBindingPattern(node))
		node = node.parent;
	return (
		ts.isVariableDeclaration(node) &&
		ts.isVariableDeclarationList(node.parent) &&
		ts.isVariableStatement(node.parent.parent) &&
		ts.isSourceFile(node.parent.parent.parent)
	);
}

function insideFunction(node: ts.Node): boolean {
	for (let n = node.parent; n; n = n.parent)
		if (ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n)) return true;
	return false;
}

export function findModuleState(files: string[]): StateFinding[] {
	const program = ts.createProgram(files, {
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.CommonJS,
		strict: true,
		noEmit: true,
		skipLibCheck: true,
	});
	const checker = program.getTypeChecker();
	const findings: StateFinding[] = [];

	for (const file of files) {
		const source = program.getSourceFile(file);
		if (!source) throw new Error(`Cannot read ${file}`);
		const report = (node: ts.Node, what: string) =>
			findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, what });
		const moduleLevel = (id: ts.Identifier | undefined) => {
			if (!id) return false;
			const symbol = checker.getSymbolAtLocation(id);
			return !!symbol?.declarations?.some(isModuleLevel);
		};

		for (const statement of source.statements) {
			if (!ts.isVariableStatement(statement)) continue;
			const flags = statement.declarationList.flags;
			if (!(flags & ts.NodeFlags.Const)) {
				report(statement, `module-level ${flags & ts.NodeFlags.Let ? 'let' : 'var'}`);
				continue;
			}
			for (const d of statement.declarationList.declarations) {
				const init = d.initializer;
				if (init && ts.isNewExpression(init) && ts.isIdentifier(init.expression)) {
					if (MUTABLE_CONTAINERS.has(init.expression.text))
						report(d, `module-level new ${init.expression.text}() (${d.name.getText(source)})`);
				}
			}
		}

		const visit = (node: ts.Node): void => {
			if (ts.isPropertyDeclaration(node) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) {
				if (!node.modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword))
					report(node, `static property ${node.name.getText(source)} that is not readonly`);
			}
			if (insideFunction(node)) {
				if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
					const root = rootOf(node.left);
					if (moduleLevel(root)) report(node, `assignment to module-level ${node.left.getText(source)}`);
				} else if (
					(ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
					(node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
				) {
					if (moduleLevel(rootOf(node.operand))) report(node, `update of module-level ${node.operand.getText(source)}`);
				} else if (ts.isDeleteExpression(node)) {
					if (moduleLevel(rootOf(node.expression)))
						report(node, `delete on module-level ${node.expression.getText(source)}`);
				} else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
					const method = node.expression.name.text;
					const target = node.expression.expression;
					if (MUTATING_METHODS.has(method) && moduleLevel(rootOf(target)))
						report(node, `${method}() on module-level ${target.getText(source)}`);
					if (
						method === 'assign' &&
						target.getText(source) === 'Object' &&
						node.arguments[0] &&
						moduleLevel(rootOf(node.arguments[0]))
					)
						report(node, `Object.assign() into module-level ${node.arguments[0].getText(source)}`);
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return findings;
}
