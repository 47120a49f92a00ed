// One row of the bench table (bench/run.ts prints and saves them; each area's bench fills some).
export interface Row {
  name: string;
  rps?: number;
  p50?: number;
  p99?: number;
  ratio?: number;
  note?: string;
  target?: string;
  met?: boolean;
}
