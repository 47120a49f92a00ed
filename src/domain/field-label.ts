// How a field is named where it has no label (spec v3 2.5, 6.2): one phrase for the task view,
// the template view and the webhook payload's field names.

/**
 * `label` when it has more than blanks, else "Unlabelled <typeName> Content at Position <n>";
 * `typeName` is the type as the caller's answer names it, `position` the field's 1-based place
 * among all of its task's fields.
 */
export function labelOrUnlabelled(label: unknown, typeName: string, position: number): string {
  return typeof label === 'string' && label.trim() !== '' ? label : `Unlabelled ${typeName} Content at Position ${position}`;
}
