// Sample calls per operation id, for the table-driven parity tests of spec v3 4.6
// (test/spine-mcp.test.ts): every operation with an MCP tool must have an entry,
// or the parity test fails and names it. Other areas add their operations here.
//
// `ok` is a call that succeeds, `refusal` one that is refused by the operation
// itself (400/403/404/409...), not by the key. Keys are fixture keys (KEYS).
// A write sample must leave the database as it found it, or be harmless to
// repeat: each sample runs once over REST, then over MCP HTTP and stdio.
import { DEMO, KEYS } from './server';

export interface SampleCall {
  key?: string; // default KEYS.admin
  args: Record<string, unknown>;
  /** Drop properties that legitimately differ between two calls (timestamps of created things). */
  normalize?: (body: unknown) => unknown;
}

export interface OpSample {
  ok: SampleCall;
  refusal: SampleCall;
}

export const opSamples: Record<string, OpSample> = {
  listMembers: {
    ok: { args: { search: 'a', sort: 'email:desc', pageSize: 3, includeInactive: true } },
    refusal: { args: { role: 'Owner' } },
  },
  getMember: {
    ok: { key: KEYS.member, args: { memberId: DEMO.members.smith } },
    refusal: { args: { memberId: DEMO.members.gina } },
  },
  listGroups: {
    ok: { args: { sort: 'name:desc', pageSize: 2 } },
    refusal: { args: { sort: 'size' } },
  },
  getGroup: {
    ok: { key: KEYS.workspace, args: { groupId: DEMO.groups.operations } },
    refusal: { args: { groupId: 999 } },
  },
  listTags: {
    ok: { args: { sort: 'usage:desc', pageSize: 500 } },
    refusal: { args: { after: 'not-a-cursor' } },
  },
};
