import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { expectHint, expectNoHint, lines } from './hint-cases.js';

const PWN_REQUEST = lines(
  'name: Preview',
  'on:',
  '  pull_request_target:',
  '    types: [opened, synchronize]',
  'permissions:',
  '  contents: write',
  'jobs:',
  '  build:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '        with:',
  '          ref: ${{ github.event.pull_request.head.sha }}',
  '      - run: npm ci && npm run build',
);

const SCRIPT_INJECTION = lines(
  'name: Triage',
  'on:',
  '  issues:',
  '    types: [opened]',
  'jobs:',
  '  triage:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - name: Echo title',
  '        run: |',
  '          echo "New issue: ${{ github.event.issue.title }}"',
  '          echo "Number: ${{ github.event.issue.number }}"',
  '      - run: echo "${{ github.event.issue.body }}" > body.txt',
  '      - uses: actions/github-script@v7',
  '        with:',
  '          script: |',
  '            console.log("${{ github.event.comment.body }}")',
  '      - name: Safe',
  '        env:',
  '          TITLE: ${{ github.event.issue.title }}',
  '        run: echo "$TITLE"',
  '      - run: |',
  '          git checkout "${{ github.head_ref }}"',
  '          echo "${{ github.event.pull_request.number }}"',
);

describe('GitHub workflow rules', () => {
  it('flags pull_request_target that checks out the pull request head', () => {
    expectHint(
      '.github/workflows/preview.yml',
      PWN_REQUEST,
      'ci/pull-request-target-checkout',
      13,
      'critical',
    );
  });

  it.each([
    ['head.ref', '          ref: ${{ github.event.pull_request.head.ref }}'],
    ['the merge ref', '          ref: refs/pull/${{ github.event.number }}/merge'],
    [
      'a git fetch of the pull ref',
      '      - run: git fetch origin pull/${{ github.event.number }}/head',
    ],
    ['gh pr checkout', '      - run: gh pr checkout ${{ github.event.pull_request.number }}'],
  ])('flags a pull_request_target checkout of %s', (_label, line) => {
    const workflow = lines(
      'on: [pull_request_target]',
      'jobs:',
      '  a:',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with:',
      line,
    );
    expectHint(
      '.github/workflows/a.yaml',
      workflow,
      'ci/pull-request-target-checkout',
      7,
      'critical',
    );
  });

  it('flags workflow_run checking out the triggering head', () => {
    const workflow = lines(
      'on:',
      '  workflow_run:',
      '    workflows: [CI]',
      'jobs:',
      '  a:',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with:',
      '          ref: ${{ github.event.workflow_run.head_sha }}',
    );
    expectHint(
      '.github/workflows/after.yml',
      workflow,
      'ci/pull-request-target-checkout',
      9,
      'critical',
    );
  });

  it('does not flag pull_request_target that checks out the base', () => {
    const safe = PWN_REQUEST.replace(
      '${{ github.event.pull_request.head.sha }}',
      '${{ github.sha }}',
    );
    expectNoHint('.github/workflows/preview.yml', safe, 'ci/pull-request-target-checkout');
  });

  it('does not flag a head checkout under the unprivileged pull_request trigger', () => {
    const safe = PWN_REQUEST.replace('pull_request_target', 'pull_request');
    expectNoHint('.github/workflows/preview.yml', safe, 'ci/pull-request-target-checkout');
  });

  it('does not flag a commented-out pull_request_target trigger', () => {
    const safe = PWN_REQUEST.replace(
      '  pull_request_target:',
      '  # pull_request_target:\n  pull_request:',
    );
    expectNoHint('.github/workflows/preview.yml', safe, 'ci/pull-request-target-checkout');
  });

  it('flags event text inside run blocks, inline runs and github-script, and grades other event fields low', () => {
    const path = '.github/workflows/triage.yml';
    const found = indexFile({ path, text: SCRIPT_INJECTION })
      .filter((h) => h.ruleId === 'ci/untrusted-input-in-run')
      .map((h) => [h.line, h.severity]);
    expect(found).toEqual([
      [11, 'high'],
      [12, 'low'],
      [13, 'high'],
      [17, 'high'],
      [23, 'high'],
      [24, 'low'],
    ]);
  });

  it('runs the workflow rules only on workflow files', () => {
    expectNoHint('docs/example.yml', SCRIPT_INJECTION, 'ci/untrusted-input-in-run');
    expectNoHint('.github/workflows/README.md', SCRIPT_INJECTION, 'ci/untrusted-input-in-run');
    expectHint(
      'action.yml',
      lines(
        'runs:',
        '  using: composite',
        '  steps:',
        '    - run: echo "${{ github.event.issue.title }}"',
        '      shell: bash',
      ),
      'ci/untrusted-input-in-run',
      4,
      'high',
    );
  });

  it('applies shell rules to run steps', () => {
    expectHint(
      '.github/workflows/x.yml',
      lines(
        'jobs:',
        '  a:',
        '    steps:',
        '      - run: curl -k https://internal.example/x.sh | sh',
      ),
      'tls/verification-disabled',
      4,
      'high',
    );
  });
});
