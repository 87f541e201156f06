// Just enough Markdown for the course texts (paragraphs, "- " and "1. "
// lists, "#" headings, `code`, **bold**, *emphasis*), escaping everything
// else: the text is data. A list may follow a paragraph line directly.
const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One line of Markdown (`code`, **bold**, *emphasis*) as HTML, everything else escaped. */
export function inline(s) {
  return escape(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');
}

const ITEM = /^\s*(?:[-*]|\d+\.)\s+/;

function block(lines) {
  const out = [];
  let para = [];
  let list = null; // { tag, items }
  const flushPara = () => { if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`); para = []; };
  const flushList = () => { if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`); list = null; };
  for (const line of lines) {
    const h = line.match(/^(#{1,4})\s+(.*)$/);
    if (h) { flushPara(); flushList(); out.push(`<h${h[1].length + 2}>${inline(h[2])}</h${h[1].length + 2}>`); continue; }
    if (ITEM.test(line)) {
      flushPara();
      const tag = /^\s*\d+\./.test(line) ? 'ol' : 'ul';
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push(line.replace(ITEM, ''));
    } else if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`; // a wrapped list item
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return out.join('');
}

export function markdown(text) {
  return text.split(/\n{2,}/).map((b) => block(b.split('\n'))).join('');
}
