/** PMIX_CONFORMANCE_COMMAND is split like a shell splits a simple command, without expansion. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shellWords } from '../../protocol/shell-words';

test('splits on whitespace and honours quotes and backslashes, expanding nothing', () => {
  assert.deepEqual(shellWords('  prterun  --dvm   x '), ['prterun', '--dvm', 'x']);
  assert.deepEqual(shellWords(`python3 'my harness.py' "a \\"b\\" $HOME" c\\ d ''`), ['python3', 'my harness.py', 'a "b" $HOME', 'c d', '']);
  assert.deepEqual(shellWords(`sh -c 'exec ./h --x "y"'`), ['sh', '-c', 'exec ./h --x "y"']);
  assert.deepEqual(shellWords('a"b"\'c\'d'), ['abcd']);
  assert.deepEqual(shellWords(''), []);
});

test('refuses an unterminated quote or a trailing backslash', () => {
  assert.throws(() => shellWords(`a 'b`), /unterminated single quote/);
  assert.throws(() => shellWords('a "b'), /unterminated double quote/);
  assert.throws(() => shellWords('a \\'), /trailing backslash/);
});
