# Completes one command line in an interactive zsh, as typing it and TAB
# would, and prints each match as `MATCH:<match>`. The shell exits after
# the completion (comppostfuncs), so the caller reads until end of file:
# no waiting for a time. After zsh-capture-completion (Valodim).
# usage: zsh -f capture.zsh DIR-WITH-_verify-claim 'verify-claim scan --for'
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PROMPT= ; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  [[ -n $__hits ]] || return
  local h; for h in $__hits; do echo -E - "MATCH:$h"; done
}'
zpty -w z "bindkey '^I' complete-word"
zpty -w z "zstyle ':completion:*' insert-tab false"
zpty -w z 'comppostfuncs=( exit )'
zpty -w z "$2"$'\t'
zpty -r z
while zpty -r z; do :; done
