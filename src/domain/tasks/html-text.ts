// Comment text from comment HTML (spec v3 2.4 comment `text`): markup removed, paragraphs
// separated by a blank line, line breaks as newline, a mention read as the name it was written
// against. Mentions are elements carrying data-mention-type and data-mention-id (docs/tasks.md).

export interface HtmlMention {
  type: string;
  id: string;
  /** The name written, without a leading @. */
  name: string;
}

const BLOCK = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'table', 'section', 'article', 'header', 'footer', 'hr']);
const LINE = new Set(['li', 'tr', 'dt', 'dd']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[2] ?? m[3] ?? m[4] ?? '') : undefined;
}

/** Text and mentions of a comment's HTML. */
export function htmlToText(html: string): { text: string; mentions: HtmlMention[] } {
  const src = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '');
  const paragraphs: string[][] = [[]];
  let line = '';
  const mentions: HtmlMention[] = [];
  const stack: { tag: string; mention?: { type: string; id: string; text: string } }[] = [];
  const flushLine = () => {
    paragraphs[paragraphs.length - 1].push(line.replace(/[ \t\r\n\f]+/g, ' ').trim());
    line = '';
  };
  const breakParagraph = () => {
    flushLine();
    paragraphs.push([]);
  };
  const emit = (s: string) => {
    const open = [...stack].reverse().find((x) => x.mention);
    if (open) open.mention!.text += s;
    else line += s;
  };
  const re = /<\/?([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src))) {
    if (m[2] !== undefined || m[3] !== undefined) {
      emit(decodeEntities(m[2] ?? m[3]));
      continue;
    }
    const tag = m[0];
    const name = m[1].toLowerCase();
    const closing = tag.startsWith('</');
    if (name === 'br') {
      if (stack.some((x) => x.mention)) emit(' ');
      else flushLine();
      continue;
    }
    if (BLOCK.has(name)) {
      breakParagraph();
      continue;
    }
    if (LINE.has(name)) {
      if (!closing) flushLine();
      continue;
    }
    if (!closing) {
      const type = attr(tag, 'data-mention-type');
      const id = attr(tag, 'data-mention-id');
      if (/\/>$/.test(tag)) continue;
      stack.push({ tag: name, mention: type !== undefined && id !== undefined ? { type, id, text: '' } : undefined });
    } else {
      const idx = stack.map((x) => x.tag).lastIndexOf(name);
      if (idx < 0) continue;
      const closed = stack.splice(idx);
      for (const c of closed.reverse()) {
        if (!c.mention) continue;
        const written = c.mention.text.replace(/\s+/g, ' ').trim().replace(/^@/, '');
        mentions.push({ type: c.mention.type, id: c.mention.id, name: written });
        emit(written);
      }
    }
  }
  for (const c of stack.reverse()) {
    if (!c.mention) continue;
    const written = c.mention.text.replace(/\s+/g, ' ').trim().replace(/^@/, '');
    mentions.push({ type: c.mention.type, id: c.mention.id, name: written });
    line += written;
  }
  flushLine();
  // Inside a paragraph, lines from <br> keep their place (empty ones included); empty paragraphs vanish.
  const text = paragraphs
    .map((p) => {
      while (p.length && p[0] === '') p.shift();
      while (p.length && p[p.length - 1] === '') p.pop();
      return p.join('\n');
    })
    .filter((p) => p !== '')
    .join('\n\n');
  return { text, mentions };
}

/** HTML for a plain `text` comment: escaped; blank lines make paragraphs, newlines make <br>. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${p.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('');
}
