#!/usr/bin/env bash
# Writes what the release archives carry beside the binary into
# dist-support/ (a `before` hook of .goreleaser.yaml): the man page, as the
# binary's `man` command prints it, and the bash, zsh and fish completion
# scripts when the binary has a `completion` command. A binary without
# one (before that command landed) gives archives without completions, and
# this says so on stderr; a `completion` command that exists but fails
# fails the release.
set -euo pipefail
cd "$(dirname "$0")/.."

out=dist-support
rm -rf "$out"
mkdir -p "$out/man" "$out/completions"

# The release builds' flags (.goreleaser.yaml: CGO_ENABLED=0, -trimpath),
# so that they reuse the packages compiled here from the build cache.
bin="$out/git-context-tree"
CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/git-context-tree

"$bin" man >"$out/man/git-context-tree.1"
test -s "$out/man/git-context-tree.1"

if "$bin" completion --help >/dev/null 2>&1; then
  "$bin" completion bash >"$out/completions/git-context-tree.bash"
  "$bin" completion zsh >"$out/completions/_git-context-tree"
  "$bin" completion fish >"$out/completions/git-context-tree.fish"
else
  echo "release-support: this git-context-tree has no completion command; the archives carry no completion scripts" >&2
fi
rm "$bin"
