import type { ContractOf, DeclaredSuccessBody, OperationId } from '@lsp/service-kit';

/** The success answer a route declares: what the use case behind it returns. */
export type AnswerOf<Id extends OperationId> = DeclaredSuccessBody<ContractOf<Id>>;
