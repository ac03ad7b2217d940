# bash completion for git context-tree, printed by
# `git context-tree completion bash`.
#
# Load it in the running shell:
#   source <(git context-tree completion bash)
# or for every shell, where bash-completion finds it by itself (git's own
# completion loads it on demand for `git context-tree` too):
#   mkdir -p ~/.local/share/bash-completion/completions
#   git context-tree completion bash > ~/.local/share/bash-completion/completions/git-context-tree
#
# `git context-tree <TAB>`: git's completion calls _git_context_tree.
# `git-context-tree <TAB>`: the binary's own completion.
# Both ask the binary (git-context-tree __complete -- <words>), which knows
# the commands and their flags, the project's selectors and this machine's
# session and run ids. When it offers nothing, bash completes file names.

# __git_context_tree_reply fills COMPREPLY with the candidates for its last
# argument (the word being completed) after the others. git's -C
# arguments (__git_C_args, set by git's completion) go first. readline
# replaces only the text after the word's last break character (= and :
# of COMP_WORDBREAKS, as in --format=json), so that much is cut from each
# candidate.
__git_context_tree_reply ()
{
	local c cur=${!#} pre= i
	for ((i = ${#cur} - 1; i >= 0; i--)); do
		case "${cur:i:1}" in
		[=:])
			if [[ $COMP_WORDBREAKS == *"${cur:i:1}"* ]]; then
				pre=${cur:0:i+1}
				break
			fi
			;;
		esac
	done
	COMPREPLY=()
	while IFS= read -r c; do
		COMPREPLY+=("${c#"$pre"} ")
	done < <(command git-context-tree ${__git_C_args[@]+"${__git_C_args[@]}"} __complete -- "$@" 2>/dev/null)
}

# _git_context_tree is what git's completion calls for `git context-tree`,
# with words, cword and cur set and __git_cmd_idx the index of
# "context-tree" in words.
_git_context_tree ()
{
	local i=${__git_cmd_idx-}
	if [ -z "$i" ] || [ "${words[i]-}" != context-tree ]; then
		for ((i = 1; i < cword; i++)); do
			[ "${words[i]}" = context-tree ] && break
		done
	fi
	__git_context_tree_reply "${words[@]:i+1:cword-i-1}" "$cur"
}

# _git_context_tree_main completes the binary called by its own name.
_git_context_tree_main ()
{
	local cur words cword
	if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
		_get_comp_words_by_ref -n =: cur words cword
	else
		words=("${COMP_WORDS[@]}") cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]}
	fi
	__git_context_tree_reply "${words[@]:1:cword-1}" "$cur"
}

complete -o bashdefault -o default -o nospace -F _git_context_tree_main git-context-tree
