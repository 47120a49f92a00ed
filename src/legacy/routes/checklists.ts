// Legacy checklist creation (legacy spec 4.1): POST /api/checklist (v1),
// /api/checklist/create-many and /api/checklist/create-with-parameters (v2).
// Each reuses the v3 start code (src/domain/checklists/create.ts), so rights,
// archived templates, parameters and the new_checklist event (one per checklist,
// spec v3 6.3 "however started ... many-at-once creation fires one event each")
// are the same as POST /v3/checklists. A call is one transaction: a refused name
// in create-many creates nothing. The legacy checklist object is "not shown"
// (legacy spec 2): designed in docs/legacy.md.
import type { Ctx } from '../../context';
import { isGuid } from '../../ids';
import { createChecklist } from '../../domain/checklists/create';
import { findChecklist } from '../../domain/checklist-lookup';
import { legacyChecklist } from '../shapes';
import { defineLegacyRoute } from '../define';
import { bad, bodyObject, guidParam, param, prop } from '../params';

/** Most checklists one create-many call may start (designed; docs/legacy.md). */
export const MAX_CREATE_MANY = 100;
const MAX_NAME = 255;

function checkName(v: unknown, what: string): string {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw bad(`${what} is required.`);
  if (typeof v !== 'string') throw bad(`${what} must be a string.`);
  if (v.trim().length > MAX_NAME) throw bad(`${what} must be at most ${MAX_NAME} characters.`);
  return v.trim();
}

function checkTemplateKey(v: unknown): string {
  if (v === undefined || v === null || v === '') throw bad('templateKey is required.');
  if (!isGuid(v)) throw bad('templateKey must be a GUID.');
  return v;
}

const start = (ctx: Ctx, templateKey: string, name: string, parameters?: Record<string, unknown>) =>
  legacyChecklist(ctx, findChecklist(ctx, createChecklist(ctx, { templateKey, name, parameters }).key));

export const checkChecklistName = (v: unknown) => checkName(v, 'checklistName');

export function createLegacy(ctx: Ctx, q: URLSearchParams) {
  const templateKey = checkTemplateKey(guidParam(q, 'templateKey'));
  const name = checkName(param(q, 'checklistName'), 'checklistName');
  return start(ctx, templateKey, name);
}

export function createManyLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const templateKey = checkTemplateKey(prop(b, 'templateKey'));
  const names = prop(b, 'checklistNames');
  if (names === undefined || names === null) throw bad('checklistNames is required: an array of checklist names.');
  if (!Array.isArray(names)) throw bad('checklistNames must be an array of strings.');
  if (names.length === 0) throw bad('checklistNames must name at least one checklist.');
  if (names.length > MAX_CREATE_MANY) throw bad(`checklistNames may name at most ${MAX_CREATE_MANY} checklists per call.`);
  const checked = names.map((n, i) => checkName(n, `checklistNames[${i}]`));
  return checked.map((n) => start(ctx, templateKey, n));
}

export function createWithParametersLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const templateKey = checkTemplateKey(prop(b, 'templateKey'));
  const name = checkName(prop(b, 'checklistName'), 'checklistName');
  const list = prop(b, 'parameters');
  const parameters: Record<string, unknown> = {};
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list)) throw bad('parameters must be an array of {parameterName, parameterValue}.');
    list.forEach((p, i) => {
      if (p === null || typeof p !== 'object' || Array.isArray(p)) throw bad(`parameters[${i}] must be an object {parameterName, parameterValue}.`);
      const pn = prop(p as Record<string, unknown>, 'parameterName');
      const pv = prop(p as Record<string, unknown>, 'parameterValue');
      if (typeof pn !== 'string' || pn.trim() === '') throw bad(`parameters[${i}].parameterName is required: a string.`);
      if (typeof pv !== 'string') throw bad(`parameters[${i}].parameterValue is required: a string.`);
      parameters[pn.trim()] = pv; // a name given twice: the last value wins
    });
  }
  return start(ctx, templateKey, name, parameters);
}

export const checklistLegacyRoutes = [
  defineLegacyRoute({ method: 'POST', path: '/api/checklist', handler: (ctx, r) => createLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'POST', path: '/api/checklist/create-many', v2: true, handler: (ctx, r) => createManyLegacy(ctx, r.body) }),
  defineLegacyRoute({ method: 'POST', path: '/api/checklist/create-with-parameters', v2: true, handler: (ctx, r) => createWithParametersLegacy(ctx, r.body) }),
];
