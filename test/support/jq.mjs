#!/usr/bin/env node
// `jq` for tests that run documented shell commands (docs/quickstart-agent.md): the real jq, compiled to
// WebAssembly (jq-wasm), so the tests need no jq on the machine. Reads stdin; takes jq's own arguments.
import { raw } from 'jq-wasm';

const args = process.argv.slice(2);
const flags = [];
let filter;
for (let index = 0; index < args.length; index++) {
  const arg = args[index];
  if (arg === '--arg' || arg === '--argjson') {
    flags.push(arg, args[index + 1], args[index + 2]);
    index += 2;
  } else if (arg.startsWith('-')) flags.push(arg);
  else if (filter === undefined) filter = arg;
}
let input = '';
for await (const chunk of process.stdin) input += chunk;
try {
  const output = await raw(input.trim() === '' ? 'null' : input, filter ?? '.', flags);
  process.stdout.write(output.endsWith('\n') || output === '' ? output : `${output}\n`);
} catch (error) {
  process.stderr.write(`jq: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(5);
}
