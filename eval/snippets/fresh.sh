#!/usr/bin/env bash
# Builds the fresh lazy-snippet sets of issue 31 from public repositories' histories, outside this
# repository (their code is never committed): one set per repository, each file type in its own
# bucket so that no type crowds the others out, markers as models write them per file type, files
# as they come (CRLF, BOM), thin-context cases with their oracle labels, then a deeper scan for
# natural ambiguous negatives in repetitive files (YAML steps, project files, docs).
#
# usage: eval/snippets/fresh.sh MIRRORS OUT [NAME...]
#   MIRRORS: the directory holding <owner>+<name>/repo git directories (the `fetch` tool's)
#   OUT:     where the sets go (/work/data/snippets-fresh); OUT/<name>/cases/... as
#            `cargo run --release -p surgical-eval -- snippets` reads with SURGICAL_SNIPPETS_DIR=OUT
#   NAME:    only these sets (default: every set below)
# Deterministic: the same mirrors (same commits, see OUT/<name>/ORIGIN's header) give the same sets.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mirrors=$1
out=$2
shift 2
export ENDINGS=any MARKERS=models THIN=1 SKIP_TAKEN=1

# name | owner+repo | buckets: "max_cases:max_bytes:max_per_path:glob glob ..." separated by ';'
SETS='
polly|App-vNext+Polly|20:30000:4:*.cs;12:60000:4:*.md;10:60000:6:*.yml *.yaml;12:60000:6:*.csproj *.props *.targets *.nuspec *.projitems *.config *.sln *.json;6:30000:4:*.txt *.ps1 *.cake *.editorconfig
mediatr|jbogard+MediatR|20:30000:4:*.cs;12:60000:6:*.csproj *.props *.json *.config *.sln *.nuspec *.xproj;8:60000:6:*.yml;6:30000:4:*.md *.ps1 *.bat *.editorconfig
attrs|python-attrs+attrs|15:30000:4:*.py *.pyi;15:100000:4:*.rst;10:60000:4:*.md;10:60000:6:*.yml *.yaml;12:60000:6:*.toml *.ini *.cfg *.lock *.in *.txt
alabaster|sphinx-doc+alabaster|12:60000:4:*.rst *.md *.txt;10:60000:4:*.html;10:60000:4:*.css_t *.css;12:60000:6:*.py *.conf *.toml *.yml *.cfg *.in
httpx|encode+httpx|15:30000:4:*.py;15:60000:4:*.md;12:60000:6:*.yml *.toml *.cfg *.txt test lint check install publish coverage
bytes|tokio-rs+bytes|20:30000:4:*.rs;10:60000:6:*.toml *.lock;10:60000:4:*.md;10:60000:6:*.yml *.sh
got|sindresorhus+got|20:30000:4:*.ts *.js;15:60000:4:*.md;10:60000:6:*.json;6:60000:6:*.yml
ansible-lint|ansible+ansible-lint|15:60000:6:*.yml *.yaml;10:60000:4:*.md;10:100000:4:*.rst;12:30000:4:*.py;8:60000:6:*.json;10:60000:6:*.txt *.in *.ini *.cfg *.toml *.lock *.css
petclinic|spring-projects+spring-petclinic|12:30000:4:*.java;12:60000:6:*.xml;10:60000:6:*.properties *.sql;10:60000:4:*.html *.jsp *.tag;12:60000:4:*.css *.scss *.yml *.gradle *.cmd *.md *.txt
hcl|hashicorp+hcl|15:30000:4:*.go;10:60000:4:*.md;10:100000:4:*.rst;12:60000:6:*.hcl *.json *.golden *.hcldec *.t *.tmpl *.mod *.y *.rl;6:60000:6:*.yml
country-codes|datasets+country-codes|15:150000:15:*.csv;12:60000:6:*.json *.yml *.md Makefile README *.pip *.py
currency-codes|datasets+currency-codes|12:60000:15:*.csv *.xml;10:60000:6:*.json *.md *.sh *.yml
serilog|serilog+serilog|20:30000:4:*.cs;12:60000:6:*.csproj *.props *.targets *.json *.sln *.config;8:60000:6:*.yml *.yaml;8:60000:4:*.md *.ps1 *.sh *.editorconfig
fugitive|tpope+vim-fugitive|20:60000:4:*.vim;12:100000:4:*.txt;6:60000:6:*.md *.yml
hyperfine|sharkdp+hyperfine|20:30000:4:*.rs;10:60000:6:*.toml *.lock;10:60000:4:*.md;10:60000:6:*.yml *.sh *.json
fluentvalidation|FluentValidation+FluentValidation|20:30000:4:*.cs;10:60000:6:*.csproj *.props *.targets *.json *.config *.resx *.xml *.sln;8:60000:6:*.yml *.yaml;10:60000:4:*.md *.txt *.ps1 *.rst
click|pallets+click|15:30000:4:*.py;15:100000:4:*.rst;10:60000:4:*.md;12:60000:6:*.toml *.yaml *.yml *.cfg *.ini *.txt *.in *.lock
fd|sharkdp+fd|20:30000:4:*.rs;10:60000:6:*.toml *.lock;10:60000:4:*.md;10:60000:6:*.yml *.yaml *.sh *.fish
sp500|datasets+s-and-p-500-companies|15:150000:15:*.csv;12:60000:6:*.json *.yml *.md *.py *.txt Makefile
precommit-hooks|pre-commit+pre-commit-hooks|15:30000:4:*.py;12:60000:6:*.yaml *.yml *.json *.ini *.cfg *.toml *.txt;8:60000:4:*.md *.rst
viper|spf13+viper|20:70000:4:*.go;10:60000:4:*.md;10:60000:6:*.yml *.yaml;10:60000:6:*.mod *.sum *.json *.toml *.hcl *.properties *.env *.ini *.editorconfig Makefile
zustand|pmndrs+zustand|20:40000:4:*.ts *.tsx;15:60000:4:*.md *.mdx;10:60000:6:*.yml *.yaml;10:60000:6:package.json tsconfig*.json *.json;8:200000:6:pnpm-lock.yaml package-lock.json yarn.lock
jsoup|jhy+jsoup|20:40000:4:*.java;10:60000:6:*.xml;12:110000:4:*.md *.txt CHANGES;8:60000:6:*.yml *.html *.properties
factory-bot|thoughtbot+factory_bot|20:30000:4:*.rb;12:60000:4:*.md;12:60000:6:*.yml *.gemspec Gemfile *.lock *.gemfile Rakefile Appraisals *.toml
monolog|Seldaek+monolog|20:40000:4:*.php;10:60000:4:*.md;10:60000:6:*.yml *.yaml *.json
moshi|square+moshi|15:40000:4:*.kt;10:40000:4:*.java;10:60000:4:*.md;10:60000:6:*.yml *.toml *.properties *.pro *.json
jq|jqlang+jq|20:60000:4:*.c *.h;10:150000:4:*.md *.txt NEWS ChangeLog;10:150000:6:*.yml *.yaml;10:100000:6:*.test *.jq *.am *.ac Makefile
plug|elixir-plug+plug|20:40000:4:*.ex *.exs;10:60000:4:*.md;10:60000:6:*.yml *.lock *.txt
dapper|DapperLib+Dapper|20:40000:4:*.cs;12:60000:6:*.csproj *.props *.targets *.json *.config *.sln *.xml;8:60000:6:*.yml *.yaml;10:60000:4:*.md *.txt *.ps1 *.cmd *.editorconfig
corpora|dariusk+corpora|25:120000:4:*.json;6:60000:4:*.md *.yml *.js
language-codes|datasets+language-codes|15:150000:15:*.csv;10:60000:6:*.json *.yml *.md *.sh *.php
swift-argument-parser|apple+swift-argument-parser|20:40000:4:*.swift;10:60000:4:*.md *.txt;10:60000:6:*.yml *.json *.mdoc *.zsh *.editorconfig
inspect-lua|kikito+inspect.lua|20:60000:6:*.lua *.tl;10:60000:6:*.md *.rockspec *.yml *.txt Makefile *.luacheckrc
scopt|scopt+scopt|20:40000:4:*.scala;10:60000:4:*.md *.markdown;10:60000:6:*.sbt *.yml *.properties
commandline|commandlineparser+commandline|20:40000:4:*.cs;10:60000:6:*.csproj *.props *.targets *.config *.sln *.json *.nuspec *.fsproj *.vbproj;8:60000:6:*.yml *.yaml;10:60000:4:*.md *.txt *.ps1 *.fsx *.vb
toml|toml-lang+toml|15:150000:4:*.md;10:60000:6:*.abnf *.yaml *.yml *.toml *.py *.txt *.json
gdp|datasets+gdp|15:600000:15:*.csv;12:60000:6:*.json *.yml *.yaml *.md *.py *.txt Makefile
log|rust-lang+log|20:40000:4:*.rs;10:60000:6:*.toml *.lock;10:60000:4:*.md;10:60000:6:*.yml *.yaml
iso3166|lukes+ISO-3166-Countries-with-Regional-Codes|15:150000:15:*.csv;12:150000:6:*.json *.xml *.md *.yml *.yaml *.py *.txt
pester|pester+Pester|20:60000:4:*.ps1 *.psm1 *.psd1;10:40000:4:*.cs;10:60000:4:*.md;10:60000:6:*.yml *.yaml *.json *.xml *.csproj *.props *.xsd *.nuspec
jason|michalmuskala+jason|20:60000:4:*.ex *.exs;10:60000:4:*.md;10:60000:6:*.yml *.lock *.json *.formatter.exs
shellcheck|koalaman+shellcheck|20:80000:4:*.hs;10:80000:4:*.md *.txt;10:60000:6:*.yml *.yaml *.cabal *.sh Dockerfile
tf-vpc|terraform-aws-modules+terraform-aws-vpc|20:60000:4:*.tf;12:80000:4:*.md;10:60000:6:*.yml *.yaml *.json *.hcl *.tflint.hcl
pgvector|pgvector+pgvector|15:80000:4:*.c *.h;15:60000:4:*.sql;10:80000:4:*.md *.out *.pl;8:60000:6:*.yml Makefile *.control *.vector
clikt|ajalt+clikt|20:60000:4:*.kt;10:80000:4:*.md;10:60000:6:*.kts *.properties *.yml *.toml
natural-gas|datasets+natural-gas|15:150000:15:*.csv;10:60000:6:*.json *.yml *.md *.py *.txt Makefile
'

want=" $* "
echo "$SETS" | while IFS='|' read -r name repo buckets; do
  [ -n "$name" ] || continue
  [ $# -eq 0 ] || [[ $want == *" $name "* ]] || continue
  gd=$mirrors/$repo/repo
  dir=$out/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  IFS=';' read -ra bs <<<"$buckets"
  for b in "${bs[@]}"; do
    IFS=':' read -r max bytes per globs <<<"$b"
    # shellcheck disable=SC2086 # the globs are words, matched by make.py, not by the shell
    (set -f; MAX_BYTES=$bytes MAX_PER_PATH=$per python3 "$here/make.py" "$gd" "$dir" "$max" $globs 2>/dev/null)
  done
  # Repetitive files: a deeper scan (every file of every commit) for ambiguous-natural negatives.
  all_globs=$(for b in "${bs[@]}"; do echo "${b#*:*:*:}"; done | tr '\n' ' ')
  (set -f; FILES_PER_COMMIT=50 MAX_BYTES=60000 MAX_PER_PATH=3 NATURAL_ONLY=1 \
    python3 "$here/make.py" "$gd" "$dir" 12 $all_globs 2>/dev/null)
  { printf 'Repository: https://github.com/%s at %s\n' "${repo/+//}" "$(git --git-dir="$gd" rev-parse HEAD)"
    printf 'Made with: eval/snippets/fresh.sh (make.py with ENDINGS=any MARKERS=models THIN=1; see eval/snippets/README.md)\n'
    printf 'Cases (commit, file, subject):\n'
    cat "$dir/ORIGIN"; } >"$dir/ORIGIN.new"
  mv "$dir/ORIGIN.new" "$dir/ORIGIN"
  echo "$name: $(ls "$dir/cases" | wc -l) cases, $(find "$dir/cases" -name snippet | wc -l) variant cases" >&2
done
