import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { fresh } from './attack-helpers.js';

// Ways around this round's Python table rows, each with a hint that must still fire (the canary is
// the request value reaching the sink). Names and parameter keys are drawn afresh per run.

function hintsIn(body: string[], category: string): number[] {
  const text = [
    'import os, subprocess',
    'from flask import Flask, abort, request, session',
    '',
    "@app.route('/attack', methods=['POST'])",
    'def attack():',
    ...body.map((line) => `    ${line}`),
  ].join('\n');
  return indexFile({ path: 'app/attack.py', text })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}

describe('attacks on the Python knowledge rows', () => {
  it('a shell whose first argument the request chooses runs what the request names', () => {
    const name = fresh();
    const lines = hintsIn(
      [`${name} = request.form['${fresh()}']`, `subprocess.run(["sh", ${name}, "echo ok"])`],
      'command-execution',
    );
    expect(lines).toEqual([7]);
  });

  it('a shell flag joined from branches still leads to the script after it', () => {
    const [cmd, user] = [fresh(), fresh()];
    const lines = hintsIn(
      [
        `${user} = request.args['${fresh()}']`,
        `${cmd} = ["cmd.exe", "/c"] if os.name == "nt" else ["bash", "-c"]`,
        `${cmd}.append("id " + ${user})`,
        `subprocess.run(${cmd})`,
      ],
      'command-execution',
    );
    expect(lines).toEqual([9]);
  });

  it('an absolute script path after an interpreter is its script, not a flag', () => {
    const user = fresh();
    const lines = hintsIn(
      [
        `${user} = request.args['${fresh()}']`,
        `subprocess.run(["python3", "/opt/ok.py", ${user}])`,
      ],
      'command-execution',
    );
    expect(lines).toEqual([]);
    const flagged = hintsIn(
      [
        `${user} = request.args['${fresh()}']`,
        `subprocess.run(["python3", ${user}, "/opt/ok.py"])`,
      ],
      'command-execution',
    );
    expect(flagged).toEqual([7]);
  });

  it('a `..` guard does not clean a name reassigned from the request after it', () => {
    const name = fresh();
    const lines = hintsIn(
      [
        `${name} = request.args['${fresh()}']`,
        `if '..' in ${name} or '/' in ${name}:`,
        '    abort(400)',
        `${name} = request.args['${fresh()}']`,
        `return open('/srv/files/' + ${name}).read()`,
      ],
      'path-traversal',
    );
    expect(lines).toEqual([10]);
  });

  it('a guard on one disjunct only proves nothing when the other can hold', () => {
    const name = fresh();
    const lines = hintsIn(
      [
        `${name} = request.args['${fresh()}']`,
        `if '..' in ${name} and len(${name}) > 100:`,
        '    abort(400)',
        `return open('/srv/files/' + ${name}).read()`,
      ],
      'path-traversal',
    );
    expect(lines).toEqual([9]);
  });

  it('a test for a double quote does not clean a value put in an apostrophe-quoted XPath', () => {
    const name = fresh();
    const lines = hintsIn(
      [
        `${name} = request.args['${fresh()}']`,
        `if '"' in ${name}:`,
        '    abort(400)',
        `return str(tree.xpath("//user[@name='" + ${name} + "']"))`,
      ],
      'xpath-injection',
    );
    expect(lines).toEqual([9]);
  });

  it('a session key the request names through an alias is still the request’s', () => {
    const [first, second] = [fresh(), fresh()];
    const lines = hintsIn(
      [
        `${first} = request.form['${fresh()}']`,
        `${second} = ${first}`,
        `session[${second}] = True`,
      ],
      'trust-boundary',
    );
    expect(lines).toEqual([8]);
  });

  it('pickle.loads of request bytes behind a constant default is still flagged', () => {
    const blob = fresh();
    const written = hintsIn(
      [
        'import pickle, base64',
        `${blob} = "c2FmZQ=="`,
        `if request.args.get('${fresh()}'):`,
        `    ${blob} = request.args['${fresh()}']`,
        `return str(pickle.loads(base64.b64decode(${blob})))`,
      ],
      'unsafe-deserialization',
    );
    expect(written).toEqual([10]);
  });
});
