import { ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import ts from 'typescript';

/**
 * A face (tui/src) never reads a failure's `.message`: a core-client `Problem` is worded by `describeProblem`, in
 * the face's own terms (a field's label, a flag), and any other `Error` (a Node system error, an abort's reason) by
 * the face's one function for those. Reading `message` of a value whose type is, or may be, an `Error` (a Problem
 * is one) is reported: as `failure.message`, `failure?.message`, `failure['message']`, or destructured.
 */
export const noFailureMessage = ESLintUtils.RuleCreator.withoutDocs({
  meta: {
    type: 'problem',
    messages: {
      failureMessage:
        "A face does not read a failure's `message`: word a Problem with describeProblem (appProblemOf in the app, failWith on the command line), any other Error with describeFailure.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const services = ESLintUtils.getParserServices(context);
    const checker = services.program.getTypeChecker();

    /** Whether `type` is the standard `Error`, derives from it, or (a union, a type parameter) may be one. */
    const isFailure = (type: ts.Type, seen = new Set<ts.Type>()): boolean => {
      if (seen.has(type)) return false;
      seen.add(type);
      if (type.isUnionOrIntersection()) return type.types.some((part) => isFailure(part, seen));
      if ((type.flags & ts.TypeFlags.TypeParameter) !== 0) {
        const constraint = checker.getBaseConstraintOfType(type);
        return constraint !== undefined && isFailure(constraint, seen);
      }
      const symbol = type.getSymbol();
      if (symbol === undefined) return false;
      if (symbol.getName() === 'Error' && isDefaultLibrary(symbol)) return true;
      // A generic class's instance (Problem<Setting, Code>) names its bases on the class as declared.
      const declared = checker.getDeclaredTypeOfSymbol(symbol);
      return declared.isClassOrInterface() && checker.getBaseTypes(declared).some((base) => isFailure(base, seen));
    };

    const isDefaultLibrary = (symbol: ts.Symbol): boolean =>
      (symbol.getDeclarations() ?? []).some((declaration: ts.Declaration) => services.program.isSourceFileDefaultLibrary(declaration.getSourceFile()));

    const typeOf = (node: TSESTree.Node): ts.Type => services.getTypeAtLocation(node);

    return {
      MemberExpression(node) {
        if (propertyName(node) === 'message' && isFailure(typeOf(node.object))) context.report({ node: node.property, messageId: 'failureMessage' });
      },
      ObjectPattern(node) {
        const message = node.properties.find((property) => property.type === 'Property' && keyName(property) === 'message');
        if (message !== undefined && isFailure(typeOf(node))) context.report({ node: message, messageId: 'failureMessage' });
      },
    };
  },
});

function propertyName(node: TSESTree.MemberExpression): string | undefined {
  if (!node.computed) return node.property.type === 'Identifier' ? node.property.name : undefined;
  return node.property.type === 'Literal' && typeof node.property.value === 'string' ? node.property.value : undefined;
}

function keyName(property: TSESTree.Property): string | undefined {
  if (property.key.type === 'Identifier' && !property.computed) return property.key.name;
  return property.key.type === 'Literal' && typeof property.key.value === 'string' ? property.key.value : undefined;
}
