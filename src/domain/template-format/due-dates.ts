// Due-date rules of template tasks (docs/template-document.md "Due dates").
export const DUE_DATE_SCENARIOS = [
  {
    relativeTo: 'checklistStart',
    description: 'Due a fixed time after the checklist starts.',
    needs: [],
    example: { relativeTo: 'checklistStart', offsetDays: 2 },
  },
  {
    relativeTo: 'taskCompletion',
    description: 'Due a fixed time after another task (`task`, a ref) is completed; no due date until then. A ring of tasks waiting on each other is a circular_reference warning.',
    needs: ['task'],
    example: { relativeTo: 'taskCompletion', task: 'manager_approval', offsetDays: 1 },
  },
  {
    relativeTo: 'dateField',
    description: 'Due relative to the answer of a Date field (`field`, a ref; mode date or date-and-time); negative offsets fall before it. No due date while the field is unanswered.',
    needs: ['field'],
    example: { relativeTo: 'dateField', field: 'start_date', offsetDays: -1 },
  },
] as const;

export const listDueDateScenarios = () => ({
  scenarios: DUE_DATE_SCENARIOS.map((s) => ({ ...s, needs: [...s.needs], offsets: 'offsetDays and offsetHours (integers, may be negative; default 0)' })),
});
