import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

const positives: PositiveCase[] = [
  [
    'innerHTML assigned a variable',
    'public/app.js',
    lines('const el = document.getElementById("out");', 'el.innerHTML = comment.body;'),
    'xss/inner-html',
    2,
    'medium',
  ],
  [
    'outerHTML built by concatenation',
    'public/app.ts',
    "node.outerHTML = '<b>' + name + '</b>';",
    'xss/inner-html',
    1,
    'medium',
  ],
  [
    'innerHTML appended',
    'public/app.ts',
    'list.innerHTML += `<li>${item}</li>`;',
    'xss/inner-html',
    1,
    'medium',
  ],
  [
    'insertAdjacentHTML',
    'public/app.js',
    'el.insertAdjacentHTML("beforeend", html);',
    'xss/insert-adjacent-html',
    1,
    'medium',
  ],
  [
    'react dangerouslySetInnerHTML',
    'src/Post.tsx',
    lines(
      'export function Post({ html }) {',
      '  return <div dangerouslySetInnerHTML={{ __html: html }} />;',
      '}',
    ),
    'xss/dangerously-set-inner-html',
    2,
    'medium',
  ],
  [
    'document.write',
    'public/legacy.js',
    'document.write("<p>" + location.hash + "</p>");',
    'xss/document-write',
    1,
    'medium',
  ],
  [
    'angular bypassSecurityTrustHtml',
    'src/app/pipe.ts',
    'return this.sanitizer.bypassSecurityTrustHtml(value);',
    'xss/angular-bypass-security-trust',
    1,
    'medium',
  ],
  [
    'vue v-html',
    'src/components/Post.vue',
    lines('<template>', '  <div v-html="post.body"></div>', '</template>'),
    'xss/vue-v-html',
    2,
    'medium',
  ],
  [
    'svelte {@html}',
    'src/Post.svelte',
    '<p>{@html post.body}</p>',
    'xss/svelte-raw-html',
    1,
    'medium',
  ],
  [
    'handlebars triple mustache',
    'views/post.hbs',
    '<div>{{{ body }}}</div>',
    'xss/template-unescaped',
    1,
    'medium',
  ],
  [
    'jinja |safe',
    'templates/post.html',
    '<div>{{ post.body|safe }}</div>',
    'xss/template-unescaped',
    1,
    'medium',
  ],
  [
    'blade {!! !!}',
    'views/post.blade.php.html',
    '<div>{!! $post->body !!}</div>',
    'xss/template-unescaped',
    1,
    'medium',
  ],
  [
    'erb <%== %>',
    'app/views/posts/show.html.erb',
    '<div><%== @post.body %></div>',
    'xss/template-unescaped',
    1,
    'medium',
  ],
  [
    'django mark_safe of a variable',
    'app/views.py',
    'html = mark_safe(user_bio)',
    'xss/python-mark-safe',
    1,
    'medium',
  ],
  [
    'rails html_safe of interpolation',
    'app/helpers/a_helper.rb',
    '"<b>#{user.name}</b>".html_safe',
    'xss/ruby-html-safe',
    1,
    'medium',
  ],
  [
    'php echo of $_GET',
    'web/index.php',
    '<?php echo "Hello " . $_GET["name"]; ?>',
    'xss/php-echo-request',
    1,
    'high',
  ],
  [
    'php page HTML gathered in a variable from request input',
    'web/hello.php',
    "<?php\n$html .= '<pre>Hello ' . $_GET['name'] . '</pre>';",
    'xss/request-html-response',
    2,
    'medium',
  ],
  [
    'php HTML variable interpolating ${name} (the older syntax)',
    'web/hello.php',
    lines(
      '<?php',
      "$name = str_replace('<b>', '', $_GET['name']);",
      '$html .= "<pre>Hello ${name}</pre>";',
    ),
    'xss/request-html-response',
    3,
    'low',
  ],
  [
    'go template.HTML of a variable',
    'web/render.go',
    'data := template.HTML(userInput)',
    'xss/go-template-html',
    1,
    'medium',
  ],
];

const negatives: NegativeCase[] = [
  [
    // Angular sanitises what a binding puts into innerHTML; bypassSecurityTrust* is the risky form.
    'angular [innerHTML] binding',
    'src/app/view.component.html',
    '<div [innerHTML]="post.body"></div>',
    'xss/inner-html',
  ],
  ['innerHTML cleared', 'public/app.js', "el.innerHTML = '';", 'xss/inner-html'],
  [
    'innerHTML set to a constant',
    'public/app.js',
    'el.innerHTML = "<b>Loading</b>";',
    'xss/inner-html',
  ],
  ['innerHTML read, not written', 'public/app.js', 'const html = el.innerHTML;', 'xss/inner-html'],
  ['innerHTML compared', 'public/app.js', "if (el.innerHTML === '') show();", 'xss/inner-html'],
  ['textContent assignment', 'public/app.js', 'el.textContent = comment.body;', 'xss/inner-html'],
  [
    'dangerouslySetInnerHTML type declaration',
    'src/types.ts',
    '  dangerouslySetInnerHTML?: { __html: string };',
    'xss/dangerously-set-inner-html',
  ],
  [
    'jinja escaped output',
    'templates/post.html',
    '<div>{{ post.body }}</div>',
    'xss/template-unescaped',
  ],
  [
    'django mark_safe of a constant',
    'app/views.py',
    'sep = mark_safe("<br>")',
    'xss/python-mark-safe',
  ],
  [
    'php HTML variable from an encoded request value',
    'web/hello.php',
    lines(
      '<?php',
      "$name = htmlspecialchars($_GET['name']);",
      '$html .= "<pre>Hello ${name}</pre>";',
    ),
    'xss/request-html-response',
  ],
  [
    'php HTML variable from a command result, not the request',
    'web/ping.php',
    lines('<?php', "$cmd = shell_exec('uptime');", '$html .= "<pre>{$cmd}</pre>";'),
    'xss/request-html-response',
  ],
  [
    'php echo with htmlspecialchars',
    'web/index.php',
    '<?php echo htmlspecialchars($_GET["name"]); ?>',
    'xss/php-echo-request',
  ],
  [
    'go template.HTML of a literal',
    'web/render.go',
    'const nbsp = template.HTML("&nbsp;")',
    'xss/go-template-html',
  ],
];

describe('XSS sink rules', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
