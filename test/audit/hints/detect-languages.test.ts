import { describe, expect, it } from 'vitest';
import { detectLanguages } from '../../../src/audit/hints/detect-languages.js';

describe('detectLanguages', () => {
  it.each([
    ['src/a.ts', '', ['js']],
    ['src/a.tsx', '', ['js']],
    ['lib/a.cjs', '', ['js']],
    ['src/App.vue', '', ['js', 'template']],
    ['public/index.html', '', ['js', 'template']],
    ['app/models/user.rb', '', ['ruby']],
    ['app/views/x.html.erb', '', ['ruby', 'template']],
    ['web/INDEX.PHP', '', ['php']],
    ['src/Main.kt', '', ['java']],
    ['cmd/main.go', '', ['go']],
    ['Svc/A.cs', '', ['csharp']],
    ['Pages/A.cshtml', '', ['csharp', 'template']],
    ['lib/A.pm', '', ['perl']],
    ['scripts/build.sh', '', ['shell']],
    ['Dockerfile', '', ['shell']],
    ['docker/Dockerfile.prod', '', ['shell']],
    ['Makefile', '', ['shell']],
    ['Gemfile', '', ['ruby']],
    ['templates/post.jinja2', '', ['template']],
    ['views/profile.pug', '', ['template']],
    ['resources/views/profile.blade.php', '', ['php', 'template']],
    ['resources/views/PROFILE.BLADE.PHP', '', ['php', 'template']],
    ['.github/workflows/ci.yml', '', ['workflow', 'shell']],
    ['pkg/.github/workflows/release.yaml', '', ['workflow', 'shell']],
    ['action.yml', '', ['workflow', 'shell']],
    ['config/app.yml', '', []],
    ['README.md', '', []],
    ['types/index.d.ts', '', []],
    ['bin/tool', '#!/usr/bin/env node\nconsole.log(1)', ['js']],
    ['bin/tool', '#!/usr/bin/env python3\nprint(1)', ['python']],
    ['bin/tool', '#!/bin/bash\necho 1', ['shell']],
    ['bin/tool', 'no shebang', []],
    ['windows\\path\\a.py', '', ['python']],
  ])('%s -> %j', (path, text, expected) => {
    expect(detectLanguages(path, text)).toEqual(expected);
  });
});
