// Comments and test titles state the rule itself, or cite a decision record under docs/decisions by
// its file name: a reference to a spec section number or a tracker issue points at a document the
// reader of the repository cannot open.
const UNOPENABLE_REFERENCE = /spec §|§ ?[0-9]|\b[Ii]ssue ?#?[0-9]+|\b[Ff]indings? [0-9]+|\bitem [0-9]+ of\b/;
const TEST_FUNCTIONS = new Set(['describe', 'it', 'test']);

const MESSAGE =
  'Points at a document a reader cannot open (a spec section or a tracker issue): state the rule itself, or cite a decision record under docs/decisions by its file name.';

/** `describe`, `it.only`, `test.describe.skip`, `it.each([...])`: the call names a test or a group. */
function isTestCall(callee) {
  let node = callee;
  if (node.type === 'CallExpression') node = node.callee;
  while (node.type === 'MemberExpression') node = node.object;
  return node.type === 'Identifier' && TEST_FUNCTIONS.has(node.name);
}

function titleText(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked).join('');
  return null;
}

const noUnopenableReferences = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Refuses spec-section and issue-number references in comments and test titles' },
    schema: [],
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          if (UNOPENABLE_REFERENCE.test(comment.value))
            context.report({ loc: comment.loc, message: MESSAGE });
        }
      },
      CallExpression(node) {
        if (!isTestCall(node.callee)) return;
        const title = titleText(node.arguments[0]);
        if (title !== null && UNOPENABLE_REFERENCE.test(title))
          context.report({ node: node.arguments[0], message: MESSAGE });
      },
    };
  },
};

export default { rules: { 'no-unopenable-references': noUnopenableReferences } };
