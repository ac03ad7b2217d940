#compdef git-context-tree
# zsh completion for git context-tree, printed by
# `git context-tree completion zsh`.
#
# Load it in the running shell (after compinit):
#   source <(git context-tree completion zsh)
# or for every shell, as _git-context-tree in a directory of $fpath:
#   mkdir -p ~/.zsh/completions
#   git context-tree completion zsh > ~/.zsh/completions/_git-context-tree
# with fpath=(~/.zsh/completions $fpath) before compinit in ~/.zshrc.
#
# `git context-tree <TAB>`: zsh's git completion calls _git-context-tree.
# `git-context-tree <TAB>`: the binary's own completion.
# Both ask the binary (git-context-tree __complete -- <words>), which knows
# the commands and their flags, the project's selectors and this machine's
# session and run ids. When it offers nothing, zsh completes file names.

_git-context-tree () {
	local -a cands words_ display
	local c w
	# The words before the current one, unquoted, then what is before the
	# cursor in the current one ($PREFIX, without its opening quote). Each
	# line is a candidate, a tab and its help for commands and flags.
	cands=("${(@f)$(command git-context-tree __complete --describe -- "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
	cands=(${cands:#})
	if (( ${#cands} == 0 )); then
		_files
		return
	fi
	for c in $cands; do
		w=${c%%$'\t'*}
		words_+=($w)
		if [[ $c == *$'\t'* ]]; then
			display+=("$w  -- ${c#*$'\t'}")
		else
			display+=($w)
		fi
	done
	compadd -l -d display -- $words_
}

if [[ $funcstack[1] == _git-context-tree ]]; then
	_git-context-tree "$@"
else
	compdef _git-context-tree git-context-tree
fi
