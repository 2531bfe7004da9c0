/**
 * A small XML well-formedness check for the SVG tests: balanced tags, quoted attributes, no raw `<` or
 * bare `&` in text or attribute values. Enough to catch an unescaped label or an unclosed element.
 */
const NAME = '[A-Za-z_][\\w.:-]*';
const ATTR = new RegExp(`^\\s+(${NAME})="([^"]*)"`);
const ENTITY = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;

export function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (ENTITY.test(text)) problems.push(`bare & in text near ${JSON.stringify(text.slice(0, 40))}`);
    if (text.includes('>')) problems.push(`raw > in text near ${JSON.stringify(text.slice(0, 40))}`);
    if (lt === -1) break;
    const gt = xml.indexOf('>', lt);
    if (gt === -1) {
      problems.push('unterminated tag');
      break;
    }
    const tag = xml.slice(lt, gt + 1);
    i = gt + 1;
    const close = new RegExp(`^</(${NAME})\\s*>$`).exec(tag);
    if (close !== null) {
      const open = stack.pop();
      if (open !== close[1]) problems.push(`</${close[1]}> closes <${open ?? 'nothing'}>`);
      continue;
    }
    const open = new RegExp(`^<(${NAME})`).exec(tag);
    if (open === null) {
      problems.push(`bad tag ${tag.slice(0, 40)}`);
      continue;
    }
    let rest = tag.slice(open[0].length, tag.endsWith('/>') ? -2 : -1);
    for (let m = ATTR.exec(rest); m !== null; m = ATTR.exec(rest)) {
      if ((m[2] ?? '').includes('<') || ENTITY.test(m[2] ?? '')) problems.push(`bad value in ${m[1]}`);
      rest = rest.slice(m[0].length);
    }
    if (rest.trim() !== '')
      problems.push(`unparsed attributes ${JSON.stringify(rest.slice(0, 40))} in <${open[1]}>`);
    if (!tag.endsWith('/>')) stack.push(open[1] as string);
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  return problems;
}
