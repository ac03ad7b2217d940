# fish completion for git context-tree, printed by
# `git context-tree completion fish`.
#
# Load it in the running shell:
#   git context-tree completion fish | source
# or for every shell:
#   git context-tree completion fish > ~/.config/fish/completions/git-context-tree.fish
#
# `git-context-tree <TAB>`: these completions; `git context-tree <TAB>`:
# fish's git completion hands git-* commands to their own completions.
# Both ask the binary (git-context-tree __complete -- <words>), which knows
# the commands and their flags, the project's selectors and this machine's
# session and run ids. When it offers nothing, fish completes file names.

function __git_context_tree_complete
    # The words after the binary's name, or after "context-tree" (then
    # git's -C <dir> options go first).
    set -l tokens (commandline -opc)
    set -l dir
    set -l i (contains -i -- context-tree $tokens)
    or set i 1
    for j in (seq 2 (math $i - 1))
        if test "$tokens[$j]" = -C
            set -a dir -C $tokens[(math $j + 1)]
        end
    end
    set -e tokens[1..$i]
    command git-context-tree $dir __complete --describe -- $tokens (commandline -ct) 2>/dev/null
end

complete -c git-context-tree -f -n 'count (__git_context_tree_complete) >/dev/null' -a '(__git_context_tree_complete)'
# git context-tree: fish's git completion does not hand it over in every
# version (3.6 looks for "git-context-tree" as the subcommand).
complete -c git -f -n '__fish_seen_subcommand_from context-tree; and count (__git_context_tree_complete) >/dev/null' -a '(__git_context_tree_complete)'
