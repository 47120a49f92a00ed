// Task rows as stored: the row layer's shape (src/rows/tasks.ts), under the name the task area has always used.
export type { TaskRow } from '../../rows/tasks';
