// The contract self-check (on in the test suite): every success body must match the
// operation's declared output schema, every refusal a declared status and code, and its
// body the declared error schema of that status (the OpenAPI error response and the MCP
// tool's error envelope, so a member a generated client would drop is caught here). A
// mismatch is answered 500 CONTRACT_VIOLATION so the test that caused it fails there.
import { ApiError, errorBody } from '../errors';
import type { Operation } from '../operations/define';
import { compiled, declaresRefusal } from './compile';

export interface ContractViolation {
  operation: string;
  detail: string;
}

export class ContractChecker {
  readonly violations: ContractViolation[] = [];

  private fail(op: Operation, detail: string): never {
    this.violations.push({ operation: op.id, detail });
    throw new ApiError(500, 'CONTRACT_VIOLATION', `The answer of ${op.id} breaks its declared contract: ${detail}`);
  }

  /** Checks a success body (after nulls are dropped, as it goes on the wire). */
  success(op: Operation, status: number, body: unknown): void {
    const main = op.status ?? 200;
    const other = op.otherSuccess?.some((o) => o.status === status) ?? false;
    if (status !== main && !other) this.fail(op, `status ${status} is not declared`);
    if (status === 204) {
      if (body !== undefined) this.fail(op, '204 with a body');
      return;
    }
    if (!op.output) return; // completeness is checked by the table test (test/contract.test.ts)
    const wire = body === undefined ? undefined : JSON.parse(JSON.stringify(body, (_k, v) => (v === null ? undefined : v)));
    const r = op.output.safeParse(wire);
    if (!r.success) {
      const i = r.error.issues[0];
      this.fail(op, `${i.path.join('.') || '(body)'}: ${i.message}`);
    }
  }

  /** Checks a refusal against the declared ones; an undeclared refusal is a contract bug. */
  refusal(op: Operation, err: ApiError): void {
    if (err.status >= 500) return; // a 500 is a bug whatever the contract says
    if (op.refusals === undefined) return; // not yet declared: the table test reports it
    if (!declaresRefusal(op, err.status, err.code)) this.fail(op, `refusal ${err.status} ${err.code} is not declared`);
    // The body as it goes on the wire (undefined members dropped), with a stand-in request id.
    const wire = JSON.parse(JSON.stringify(errorBody(err, 'req_contract_check'), (_k, v) => (v === null ? undefined : v)));
    const r = compiled(op).errorSchema(err.status).safeParse(wire);
    if (!r.success) {
      const i = r.error.issues[0];
      const where = i.path.join('.') || '(body)';
      const keys = i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : '';
      this.fail(op, `refusal ${err.status} ${err.code} body, ${where}: ${i.message}${keys}`);
    }
  }
}
