// Helpers for the template tests: rights and folders set straight in the database
// (the fixture gives no member Template.Creator; EMULATOR.md fixes its people).
import type { TestServer } from './server';

export function setRights(s: TestServer, memberId: number, rights: string[]): void {
  s.emu.db.prepare('UPDATE members SET rights = ? WHERE id = ?').run(JSON.stringify(rights), memberId);
}

/** A minimal valid document with no ids. */
export function smallDoc(name = 'Small Template') {
  return {
    name,
    tasks: [
      { ref: 'first', name: 'First', fields: [{ ref: 'answer', type: 'ShortText', label: 'Answer' }] },
      { ref: 'second', name: 'Second' },
    ],
  };
}

export const codesAt = (result: any) => result.violations.map((v: any) => `${v.code} ${v.path}`);
