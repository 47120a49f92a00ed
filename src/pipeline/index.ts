// The request path every transport shares (src/pipeline/run.ts).
export * from './types';
export * from './steps';
export * from './run';
