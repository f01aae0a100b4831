# Sourced by the scripts that run a .NET project's build output (scripts/harness.sh, scripts/k8s-local.sh), after
# lib/common.sh (its root and build_release).
# build_if_changed PROJECT DLL STAMP INPUT...: builds PROJECT (Release, warnings as errors) when DLL or STAMP is
# missing, or when a file under an INPUT folder, or a build setting at the repository's root, is newer than STAMP.
# bin/, obj/ and node_modules/ are outputs. A failed build prints its log, returns 1 and leaves STAMP as it was, so
# the next call builds again.
build_if_changed() {
  local project=$1 dll=$2 stamp=$3 started
  shift 3
  if [[ -f "$stamp" && -f "$dll" ]] \
    && [[ -z "$(find "$@" \( -name bin -o -name obj -o -name node_modules \) -prune -o -type f -newer "$stamp" -print -quit)" ]] \
    && [[ -z "$(find "$root" -maxdepth 1 \( -name 'Directory.*' -o -name global.json -o -name NuGet.config -o -name .editorconfig \) \
      -newer "$stamp" -print -quit)" ]]; then
    return 0
  fi

  # The stamp takes the time the build started, so a file saved during the build is seen by the next call.
  started="$project/obj/$(basename "$stamp")-started"
  mkdir -p "$(dirname "$started")"
  touch "$started"
  build_release "$project" || return 1
  mv "$started" "$stamp"
}
