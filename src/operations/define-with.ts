// Facts every operation of an area states alike (its OpenAPI tag, where its behaviour comes
// from, why it has no MCP tool, its budget) are stated once, at the top of the area's file.
import type { z } from 'zod';
import { defineOperation, type Declared, type Operation } from './define';

/** The facts an area may state once for all its operations. */
export type SharedFact = 'tag' | 'fidelity' | 'noTool' | 'tool' | 'budget' | 'refusals';

/** A `defineOperation` that fills in `shared`; an operation may still state one of them itself, which wins. */
export function defineWith<K extends SharedFact>(shared: Pick<Operation, K>) {
  return <S extends z.ZodRawShape>(op: Omit<Declared<S>, K> & Partial<Pick<Declared<S>, K>>): Operation => defineOperation<S>({ ...shared, ...op } as unknown as Declared<S>);
}
