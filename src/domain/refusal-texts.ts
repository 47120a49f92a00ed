// Refusal messages the web console also shows before a write is tried (a halted task's
// fields, an exclusively assigned task), kept in one place so both say the same words.
// No imports: the console's client bundles this file.
export const HALTED_FIELDS_MESSAGE = 'The task is halted behind a stop task that is not complete; its fields cannot be changed yet. Complete the stop task first.';

export const HALTED_COMPLETE_MESSAGE = 'The task cannot be completed yet: it is halted behind a stop task that is not complete. Complete the stop task first.';

export const EXCLUSIVE_MESSAGE =
  'This task is assigned exclusively, and you are not one of its assignees: only its assignees and Administrators may change it. ' +
  'An Administrator can assign you to the task or turn off its exclusive assignment.';
