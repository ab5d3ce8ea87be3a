#!/usr/bin/env bash
# Build the shop image and roll it out to one environment.
set -euo pipefail

source "$(dirname "$0")/lib/common.sh"

readonly IMAGE="registry.example.com/shop"
TARGET="${1:-staging}"

log() {
  printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

function die {
  log "error: $*"
  exit 1
}

build_image() {
  local tag="$1"
  log "building ${IMAGE}:${tag}"
  docker build -t "${IMAGE}:${tag}" . || die "build failed"
}

push_image() {
  local tag="$1"
  retry 3 docker push "${IMAGE}:${tag}"
}

rollout() {
  local tag="$1" env="$2"
  case "$env" in
    staging|production)
      kubectl --context "$env" set image deployment/shop "shop=${IMAGE}:${tag}"
      wait_for_rollout "$env"
      ;;
    *)
      die "unknown environment: $env"
      ;;
  esac
}

main() {
  local tag
  tag="$(git rev-parse --short HEAD)"
  build_image "$tag"
  push_image "$tag"
  rollout "$tag" "$TARGET"
  notify_chat "deployed ${tag} to ${TARGET}"
}

main "$@"
