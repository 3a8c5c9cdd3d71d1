// Loaded with `node --import`: records every module URL the program resolves into $OY_TRACE_IMPORTS,
// so a test can prove `oy --version` loads no provider SDK and no command module.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      const file = process.env.OY_TRACE_IMPORTS;
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        if (file) appendFileSync(file, result.url + '\\n');
        return result;
      }
    `),
);
