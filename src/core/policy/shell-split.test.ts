import { rootCommands, splitShellCommand, type ShellCommand } from './shell-split';

function parts(command: string): ShellCommand[] {
  const split = splitShellCommand(command);
  if (!split.ok) throw new Error(`expected ${JSON.stringify(command)} to parse: ${split.reason}`);
  return split.commands;
}

const texts = (command: string) => parts(command).map((c) => c.text);
const roots = (command: string) => parts(command).map((c) => c.root);

describe('splitShellCommand', () => {
  it.each([
    ['a; b', ['a', 'b']],
    ['a && b', ['a', 'b']],
    ['a || b', ['a', 'b']],
    ['a | b', ['a', 'b']],
    ['a |& b', ['a', 'b']],
    ['a & b', ['a', 'b']],
    ['a\nb', ['a', 'b']],
    ['a;b&&c||d|e', ['a', 'b', 'c', 'd', 'e']],
    ['git status', ['git status']],
  ])('splits %j on its separators', (command, expected) => {
    expect(texts(command)).toEqual(expected);
  });

  it.each([
    ["git log --format='a;b|c&&d'"],
    ['echo "a; b && c | d"'],
    ['echo a\\;b'],
    ['echo "it\'s; fine"'],
    ['grep -e "x\\"; rm y"'],
  ])('does not split on quoted or escaped separators: %j', (command) => {
    expect(texts(command)).toEqual([command]);
  });

  it.each([
    ['git status $(rm x)', ['git status $(rm x)', 'rm x']],
    ['git status `rm x`', ['git status `rm x`', 'rm x']],
    ['echo "$(rm x)"', ['echo "$(rm x)"', 'rm x']],
    ['echo "a `rm x` b"', ['echo "a `rm x` b"', 'rm x']],
    ['echo --opt=$(rm x)', ['echo --opt=$(rm x)', 'rm x']],
    ['echo $(a $(b; c))', ['echo $(a $(b; c))', 'a $(b; c)', 'b', 'c']],
    ['echo ${x:-$(rm y)}', ['echo ${x:-$(rm y)}', 'rm y']],
    ['(rm x)', ['rm x']],
    ['(a; (b && c))', ['a', 'b', 'c']],
    ['{ a; b; }', ['a', 'b']],
    ['diff <(ls a) >(tee b)', ['diff <(ls a) >(tee b)', 'ls a', 'tee b']],
  ])('finds the commands inside substitutions and groups: %j', (command, expected) => {
    expect(texts(command)).toEqual(expected);
  });

  it('does not look inside single quotes, where nothing is substituted', () => {
    expect(texts("echo '$(rm x)'")).toEqual(["echo '$(rm x)'"]);
  });

  it.each([
    ["bash -c 'rm x'", ['rm x']],
    ['sh -c "git status; rm x"', ['git status', 'rm x']],
    ["bash -lc 'a && b'", ['a', 'b']],
    ["sh -e -c 'a | b'", ['a', 'b']],
    ['bash -c "bash -c \'rm x\'"', ['rm x']],
    ["/bin/bash -c 'rm x'", ['rm x']],
  ])('unwraps %j', (command, expected) => {
    expect(texts(command)).toEqual(expected);
  });

  it('does not unwrap a shell that runs a script file', () => {
    expect(roots('bash script.sh -c ls')).toEqual(['bash']);
  });

  it.each([
    ['if git diff; then rm x; fi', ['git diff', 'rm x']],
    ['while true; do rm x; done', ['true', 'rm x']],
    ['! rm x', ['rm x']],
    ['time make', ['make']],
  ])('skips reserved words: %j', (command, expected) => {
    expect(texts(command)).toEqual(expected);
  });

  it('stops at a comment', () => {
    expect(texts('git status # ; rm x')).toEqual(['git status']);
  });

  it('names the command: env assignments skipped, path stripped, quotes removed', () => {
    expect(parts('FOO=1 BAR="a b" /usr/bin/git status')[0]).toMatchObject({
      root: 'git',
      normalized: 'git status',
      text: 'FOO=1 BAR="a b" /usr/bin/git status',
    });
    expect(roots('\'rm\' x; r\\m y; "rm" z')).toEqual(['rm', 'rm', 'rm']);
  });

  it('gives an assignment on its own an empty root', () => {
    expect(parts('FOO=$(rm x)').map((c) => c.root)).toEqual(['', 'rm']);
  });

  it.each([
    ['echo hi > out', true],
    ['echo hi >> out', true],
    ['sort < in', true],
    ['make 2> err', true],
    ['make &> log', true],
    ['make >& log', true],
    ['make 2>&1', false],
    ['make >&2', false],
    ['make 2>&-', false],
    ['cat <<< "text"', false],
    ['diff <(a) <(b)', false],
    ['echo "a > b"', false],
  ])('reports redirection in %j: %s', (command, expected) => {
    expect(parts(command)[0].hasRedirection).toBe(expected);
  });

  it('reports a redirection of a group on every command in it', () => {
    expect(parts('(a; b) > out').map((c) => c.hasRedirection)).toEqual([true, true]);
    expect(parts('a > out | b').map((c) => c.hasRedirection)).toEqual([true, false]);
  });

  it('skips heredoc bodies but finds substitutions in unquoted ones', () => {
    expect(texts('cat <<EOF\nrm x\n$(touch y)\nEOF\nls')).toEqual(['cat <<EOF', 'touch y', 'ls']);
    expect(texts("cat <<'EOF'\n$(touch y)\nEOF")).toEqual(["cat <<'EOF'"]);
    expect(texts('cat <<-EOF > f\n\tbody\n\tEOF\nrm z')).toEqual(['cat <<-EOF > f', 'rm z']);
  });

  it.each([
    ['echo "unterminated'],
    ["echo 'unterminated"],
    ['echo `unterminated'],
    ['echo $(unterminated'],
    ['(a; b'],
    ['a)'],
    ['{ a; b'],
    ['echo ${x'],
    ['echo > '],
    ['f() { rm x; }'],
    ['echo `echo \\`rm x\\``'],
  ])('refuses %j', (command) => {
    expect(splitShellCommand(command).ok).toBe(false);
  });

  it.each([
    ['git status <(git status)#;touch PWNED', ['git', 'git', 'touch']],
    ['git status >(ls)x; rm y', ['git', 'ls', 'rm']],
    ['cat < <(rm x)', ['cat', 'rm']],
    ['echo a#b; rm x', ['echo', 'rm']],
    ['echo $(true)#; rm x', ['echo', 'true', 'rm']],
    ['echo x # ; rm x', ['echo']],
  ])('treats "#" as a comment only where a word starts: %j', (command, expected) => {
    expect(roots(command)).toEqual(expected);
  });

  it.each([
    ['git status $(cat <<EOF)\ntouch PWNED\nEOF'],
    ['echo "$(cat <<EOF\nbody\nEOF)"; touch PWNED'],
    ['git status `cat <<EOF\ntouch PWNED\nEOF`'],
    ['cat <<EOF $(a\nb)\nbody\nEOF'],
    ['cat <<EOF\nEO\\\nF\ntouch PWNED'],
    ['cat <<$(x)\nbody\n$(x)'],
  ])('refuses a here-document it cannot delimit exactly as bash does: %j', (command) => {
    expect(splitShellCommand(command).ok).toBe(false);
  });

  it('reads a here-document that opens and ends inside $(...)', () => {
    expect(roots('git commit -m "$(cat <<\'EOF\'\nfix: a; b\nEOF\n)"; rm x')).toEqual(['git', 'cat', 'rm']);
    expect(roots('git status $(cat <<EOF\n$(rm y)\nEOF\n); rm x')).toEqual(['git', 'cat', 'rm', 'rm']);
  });

  it('reads several here-documents of one line in order', () => {
    expect(texts('cat <<A; cat <<B\nrm x\nA\nrm y\nB\nls')).toEqual(['cat <<A', 'cat <<B', 'ls']);
  });

  it.each([
    ['echo $(( 1 << 2 )); rm x', ['echo', 'rm']],
    ['(( x = 1 << 2 )); rm x', ['rm']],
    ['echo $(( 1 + $(rm x) ))', ['echo', 'rm']],
    ['echo $((ls) )', ['echo', 'ls']],
  ])('reads arithmetic as arithmetic, with its substitutions: %j', (command, expected) => {
    expect(roots(command)).toEqual(expected);
  });

  it.each([
    ['eval "rm x; ls"', ['rm', 'ls']],
    ["eval 'git status;' rm x", ['git', 'rm']],
    ['env X=1 rm x', ['env', 'rm']],
    ['env -u HOME -i rm x', ['env', 'rm']],
    ['exec rm x', ['exec', 'rm']],
    ['command rm x', ['command', 'rm']],
    ['nice -n 5 rm x', ['nice', 'rm']],
    ['timeout -s KILL 5 rm x', ['timeout', 'rm']],
    ["env bash -c 'rm x'", ['env', 'rm']],
    ["bash -o errexit -c 'rm x'", ['rm']],
    ['time -p rm x', ['rm']],
    ['find . -name "*.o" -exec rm {} \\; -execdir ls +', ['find', 'rm', 'ls']],
  ])('reports the command a wrapper runs: %j', (command, expected) => {
    expect(roots(command)).toEqual(expected);
  });

  it.each([
    ['$X rm'],
    ['X=rm; ${X} x'],
    ['$(echo rm) x'],
    ['`echo rm` x'],
    ['{rm,x}'],
    ['r*m x'],
    ["$'\\x72m' x"],
    ['eval "$CMD"'],
    ['bash -c "$CMD"'],
    ['env -S "rm x"'],
    ["x='$(rm y)'; echo $((x))"],
    ["export PS4='$(rm y)'"],
    ['alias g=rm'],
    ['trap "rm x" EXIT'],
    ['hash -p /bin/rm ls'],
    ['source ./script.sh'],
    ['case x in x) rm y;; esac'],
    ['function f { rm x; }'],
    ['coproc rm x'],
  ])('refuses what only bash can resolve when it runs: %j', (command) => {
    expect(splitShellCommand(command).ok).toBe(false);
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    expect(splitShellCommand('$('.repeat(500) + ')'.repeat(500)).ok).toBe(false);
  });

  it('returns no commands for an empty line', () => {
    expect(parts('  ')).toEqual([]);
  });
});

describe('rootCommands', () => {
  it('lists distinct roots in order', () => {
    expect(rootCommands('git status && npm test | git log; FOO=1 npm run x')).toEqual(['git', 'npm']);
  });

  it('is empty for an unparseable command', () => {
    expect(rootCommands('echo "oops')).toEqual([]);
  });
});
