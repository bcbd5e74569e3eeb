// Just enough of each template language to render the examples' snippets with sample values.
// Each fails on what it does not know (an expression without a value, an unknown filter, a tag
// left unrendered), so a changed snippet fails its test rather than passing unread.
import ts from 'typescript';

/** Sample values by the expression a snippet writes (`.Permalink`, `site.lang`). */
export type Values = Record<string, string | undefined>;

/** The value of an expression; one the test has no value for fails it (the snippet changed). */
function lookup(values: Values, expression: string): string | undefined {
  if (!(expression in values)) throw new Error(`The snippet uses ${expression}: give it a value`);
  return values[expression];
}

const escapeHTML = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function assertRendered(html: string, marks: string[]) {
  const left = marks.find((mark) => html.includes(mark));
  if (left) throw new Error(`Unrendered ${left} in:\n${html}`);
  return html;
}

/** Hugo (Go html/template): comments, `{{- -}}`, `with … end` and `{{ expr }}`, all escaped. */
export function renderHugo(template: string, values: Values): string {
  const html = template
    .replace(/\s*\{\{-\s/g, '{{ ')
    .replace(/\s-\}\}\s*/g, ' }}')
    .replace(/\{\{ \/\*[\s\S]*?\*\/ \}\}/g, '')
    .replace(/\{\{ with (\S+) \}\}([\s\S]*?)\{\{ end \}\}/g, (_, expression, body: string) => {
      const value = lookup(values, expression);
      return value ? body.replace(/\{\{ \. \}\}/g, escapeHTML(value)) : '';
    })
    .replace(/\{\{ (\S+) \}\}/g, (_, expression) => escapeHTML(lookup(values, expression) ?? ''));
  return assertRendered(html, ['{{', '}}']);
}

/** Liquid (Jekyll): comments, `{%- -%}`, `if … endif`, and `{{ expr | filters }}`, raw unless escaped. */
export function renderLiquid(template: string, values: Values): string {
  const filters: Record<string, (value: string) => string> = {
    escape: escapeHTML,
    absolute_url: (path) => `${lookup(values, 'site.url')}${path}`,
  };
  const html = template
    .replace(/\s*\{([{%])-/g, '{$1')
    .replace(/-([}%])\}\s*/g, '$1}')
    .replace(/\{% comment %\}[\s\S]*?\{% endcomment %\}/g, '')
    .replace(/\{% if (\S+) %\}([\s\S]*?)\{% endif %\}/g, (_, expression, body: string) =>
      lookup(values, expression) ? body : '',
    )
    .replace(/\{\{ (.+?) \}\}/g, (_, pipeline: string) => {
      const [expression, ...names] = pipeline.split('|').map((part) => part.trim());
      return names.reduce(
        (value, name) => {
          const filter = filters[name];
          if (!filter) throw new Error(`The snippet uses the filter ${name}: teach the test`);
          return filter(value);
        },
        lookup(values, expression!) ?? '',
      );
    });
  return assertRendered(html, ['{{', '}}', '{%', '%}']);
}

/**
 * Locals whose every property the test knows: reading one it does not know fails (the snippet
 * changed). A known property may be undefined (a setting left out).
 */
function strict<T extends object>(object: T, path: string): T {
  return new Proxy(object, {
    get(target, key) {
      if (typeof key === 'symbol') return Reflect.get(target, key);
      if (!(key in target)) throw new Error(`The snippet reads ${path}.${key}: give it a value`);
      const value = Reflect.get(target, key);
      return typeof value === 'object' && value !== null ? strict(value, `${path}.${key}`) : value;
    },
  });
}

/** EJS (Hexo): `<%# %>` comments, `<% code %>`, `<%= escaped %>` and `<%- raw %>`. */
export function renderEjs(template: string, locals: Record<string, object>): string {
  let code = 'let out = "";\n';
  for (const part of template.split(/(<%[\s\S]*?%>)/)) {
    if (part.startsWith('<%#')) continue;
    else if (part.startsWith('<%=')) code += `out += escape(${part.slice(3, -2)});\n`;
    else if (part.startsWith('<%-')) code += `out += (${part.slice(3, -2)});\n`;
    else if (part.startsWith('<%')) code += `${part.slice(2, -2)}\n`;
    else code += `out += ${JSON.stringify(part)};\n`;
  }
  const names = Object.keys(locals);
  const render = new Function('escape', ...names, `${code}return out;`);
  const escape = (value: unknown) => escapeHTML(value == null ? '' : String(value));
  return render(escape, ...names.map((name) => strict(locals[name]!, name)));
}

/** TypeScript to JavaScript, as Astro does for a component's frontmatter and scripts. */
const toJS = (source: string) =>
  ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;

/**
 * Astro: the frontmatter run with `Astro.props`, `name={expr}` attributes (left out when
 * undefined, null or false), `is:inline` dropped. The processed `<script>` comes back apart.
 */
export function renderAstro(source: string, props: Record<string, unknown>) {
  const [, frontmatter = '', markup = ''] = source.split(/^---$/m);
  const script = /<script>([\s\S]*?)<\/script>/.exec(markup)?.[1] ?? '';
  const expressions: string[] = [];
  const template = markup
    .replace(/<script>[\s\S]*?<\/script>/, '')
    .replace(/\sis:inline/g, '')
    .replace(/\s([\w-]+)=\{((?:[^{}]|\{[^{}]*\})*)\}/g, (_, name, expression: string) => {
      expressions.push(expression);
      return ` ${name}=\uE000${expressions.length - 1}\uE000`;
    });
  assertRendered(template, ['{', '}']);
  const evaluate = new Function('Astro', `${toJS(frontmatter)}\nreturn [${expressions}];`);
  const results: unknown[] = evaluate({ props });
  const html = template.replace(/ ([\w-]+)=\uE000(\d+)\uE000/g, (_, name, index) => {
    const value = results[Number(index)];
    if (value === undefined || value === null || value === false) return '';
    return value === true ? ` ${name}` : ` ${name}="${escapeHTML(String(value))}"`;
  });
  return { html, script: toJS(script) };
}
