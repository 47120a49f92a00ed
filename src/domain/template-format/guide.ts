// The authoring guide: docs/template-document.md, served as is by
// GET /v3/schema/authoring-guide, the tool get_authoring_guide, an MCP resource
// and an MCP prompt. Its worked example (the first ```json block under
// "Worked example") is also returned parsed, so an agent can start from it.
import { readAsset } from '../../assets';

export const GUIDE_PATH = 'docs/template-document.md';

export function guideText(): string {
  return readAsset(GUIDE_PATH);
}

export function workedExample(text = guideText()): unknown {
  const at = text.indexOf('## Worked example');
  const m = /```json\n([\s\S]*?)\n```/.exec(text.slice(at < 0 ? 0 : at));
  return m ? JSON.parse(m[1]) : undefined;
}

export function authoringGuide() {
  const text = guideText();
  return { title: 'Writing a template document', format: 'markdown', text, example: workedExample(text) };
}
